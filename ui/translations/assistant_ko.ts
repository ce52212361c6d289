<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="ko_KR">
<context>
    <name>ConversationView</name>
    <message>
        <location filename="../conversation.py" line="159"/>
        <source>Ask something: type below, or hold “Hold to talk” while you speak.</source>
        <translation>무엇이든 물어보세요: 아래에 입력하거나, 말하는 동안 “눌러서 말하기”를 누르고 계세요.</translation>
    </message>
</context>
<context>
    <name>KioskWindow</name>
    <message>
        <location filename="../kiosk.py" line="56"/>
        <location filename="../kiosk.py" line="127"/>
        <location filename="../kiosk.py" line="225"/>
        <source>One moment…</source>
        <translation>잠시만요…</translation>
    </message>
    <message>
        <location filename="../kiosk.py" line="59"/>
        <source>Listening…</source>
        <translation>듣고 있어요…</translation>
    </message>
    <message>
        <location filename="../kiosk.py" line="60"/>
        <source>I&apos;m listening…</source>
        <translation>말씀하세요…</translation>
    </message>
    <message>
        <location filename="../kiosk.py" line="61"/>
        <source>Thinking…</source>
        <translation>생각 중이에요…</translation>
    </message>
    <message>
        <location filename="../kiosk.py" line="62"/>
        <source>Speaking…</source>
        <translation>말하는 중이에요…</translation>
    </message>
    <message>
        <location filename="../kiosk.py" line="150"/>
        <source>Just start talking, or tap the button.</source>
        <translation>그냥 말씀하시거나 버튼을 누르세요.</translation>
    </message>
    <message>
        <location filename="../kiosk.py" line="151"/>
        <source>Tap the button, then ask your question.</source>
        <translation>버튼을 누른 다음 질문하세요.</translation>
    </message>
    <message>
        <location filename="../kiosk.py" line="154"/>
        <source>Hello! Ask me anything. Just start talking.</source>
        <translation>안녕하세요! 무엇이든 물어보세요. 그냥 말씀하시면 돼요.</translation>
    </message>
    <message>
        <location filename="../kiosk.py" line="165"/>
        <location filename="../kiosk.py" line="269"/>
        <source>Tap to talk</source>
        <translation>눌러서 말하기</translation>
    </message>
    <message>
        <location filename="../kiosk.py" line="220"/>
        <source>Sorry, this assistant is out of order right now.</source>
        <translation>죄송합니다. 지금은 비서를 사용할 수 없어요.</translation>
    </message>
    <message>
        <location filename="../kiosk.py" line="227"/>
        <source>I can&apos;t hear right now. Please tell a member of staff.</source>
        <translation>지금은 들을 수 없어요. 직원에게 알려 주세요.</translation>
    </message>
    <message>
        <location filename="../kiosk.py" line="269"/>
        <source>■  Stop</source>
        <translation>■  멈추기</translation>
    </message>
    <message>
        <location filename="../status.py" line="42"/>
        <source>You can interrupt me any time.</source>
        <translation>언제든지 제 말을 끊고 말씀하셔도 돼요.</translation>
    </message>
    <message>
        <location filename="../status.py" line="43"/>
        <source>To interrupt me, say “stop”.</source>
        <translation>제 말을 멈추려면 “그만”이라고 말씀하세요.</translation>
    </message>
</context>
<context>
    <name>LatencyMeter</name>
    <message>
        <location filename="../meter.py" line="23"/>
        <source>endpoint</source>
        <translation>발화 끝 대기</translation>
    </message>
    <message>
        <location filename="../meter.py" line="24"/>
        <source>STT</source>
        <translation>음성 인식</translation>
    </message>
    <message>
        <location filename="../meter.py" line="25"/>
        <source>first token</source>
        <translation>첫 토큰</translation>
    </message>
    <message>
        <location filename="../meter.py" line="26"/>
        <source>first clause</source>
        <translation>첫 구절</translation>
    </message>
    <message>
        <location filename="../meter.py" line="27"/>
        <source>TTS first audio</source>
        <translation>첫 합성 음성</translation>
    </message>
    <message>
        <location filename="../meter.py" line="32"/>
        <source>other</source>
        <translation>기타</translation>
    </message>
    <message>
        <location filename="../meter.py" line="174"/>
        <source>heard %s</source>
        <translation>들린 지연 %s</translation>
    </message>
    <message>
        <location filename="../meter.py" line="175"/>
        <source>voice to voice %s (timeline)</source>
        <translation>음성에서 음성까지 %s (타임라인)</translation>
    </message>
    <message>
        <location filename="../meter.py" line="177"/>
        <source>end of turn: %s</source>
        <translation>발화 끝 판단: %s</translation>
    </message>
    <message>
        <location filename="../meter.py" line="211"/>
        <source>LAST TURN</source>
        <translation>마지막 대화</translation>
    </message>
    <message>
        <location filename="../meter.py" line="212"/>
        <source>typed: text to first sound</source>
        <translation>입력: 글에서 첫 소리까지</translation>
    </message>
    <message>
        <location filename="../meter.py" line="213"/>
        <source>heard voice to voice</source>
        <translation>들린 음성에서 음성까지</translation>
    </message>
    <message>
        <location filename="../meter.py" line="213"/>
        <source>voice to voice</source>
        <translation>음성에서 음성까지</translation>
    </message>
    <message>
        <location filename="../meter.py" line="215"/>
        <source>spoken by %s</source>
        <translation>목소리: %s</translation>
    </message>
    <message>
        <location filename="../meter.py" line="219"/>
        <source>no turns yet — ask something</source>
        <translation>아직 대화가 없어요 — 무엇이든 물어보세요</translation>
    </message>
    <message>
        <location filename="../meter.py" line="219"/>
        <source>no reply audio in the last turn</source>
        <translation>마지막 대화에는 음성 답변이 없었어요</translation>
    </message>
    <message>
        <location filename="../meter.py" line="291"/>
        <source>stages overlap: the reply started before the endpoint</source>
        <translation>단계 겹침: 발화가 끝나기 전에 답변을 시작함</translation>
    </message>
    <message numerus="yes">
        <location filename="../meter.py" line="310"/>
        <source>SESSION · %n spoken turn(s)</source>
        <translation>
            <numerusform>세션 · 말한 대화 %n번</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../meter.py" line="313"/>
        <source>typed %s, median %s</source>
        <translation>입력 %s번, 중앙값 %s</translation>
    </message>
    <message>
        <location filename="../meter.py" line="317"/>
        <source>median</source>
        <translation>중앙값</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../status.py" line="41"/>
        <source>talk over it</source>
        <translation>말 끊기 가능</translation>
    </message>
    <message>
        <location filename="../status.py" line="41"/>
        <source>half duplex</source>
        <translation>반이중</translation>
    </message>
    <message>
        <location filename="../status.py" line="59"/>
        <source>mic off</source>
        <translation>마이크 꺼짐</translation>
    </message>
    <message>
        <location filename="../status.py" line="60"/>
        <source>mic on (push-to-talk)</source>
        <translation>마이크 켜짐 (눌러서 말하기)</translation>
    </message>
    <message>
        <location filename="../status.py" line="61"/>
        <source>mic on (hands-free)</source>
        <translation>마이크 켜짐 (핸즈프리)</translation>
    </message>
    <message>
        <location filename="../status.py" line="62"/>
        <source>no microphone</source>
        <translation>마이크 없음</translation>
    </message>
    <message>
        <location filename="../window.py" line="45"/>
        <source>Offline voice assistant</source>
        <translation>오프라인 음성 비서</translation>
    </message>
    <message>
        <location filename="../window.py" line="69"/>
        <source>Settings…</source>
        <translation>설정…</translation>
    </message>
    <message>
        <location filename="../window.py" line="83"/>
        <source>Type a question and press Enter…</source>
        <translation>질문을 입력하고 Enter를 누르세요…</translation>
    </message>
    <message>
        <location filename="../window.py" line="85"/>
        <source>Send</source>
        <translation>보내기</translation>
    </message>
    <message>
        <location filename="../window.py" line="86"/>
        <source>■  Stop</source>
        <translation>■  멈추기</translation>
    </message>
    <message>
        <location filename="../window.py" line="87"/>
        <source>Interrupt the reply now (Esc)</source>
        <translation>지금 답변 멈추기 (Esc)</translation>
    </message>
    <message>
        <location filename="../window.py" line="89"/>
        <source>Hold to talk</source>
        <translation>눌러서 말하기</translation>
    </message>
    <message>
        <location filename="../window.py" line="90"/>
        <source>Hold while you speak; release to get the answer</source>
        <translation>말하는 동안 누르고 있다가, 놓으면 답변을 들을 수 있어요</translation>
    </message>
    <message>
        <location filename="../window.py" line="91"/>
        <source>Hands-free</source>
        <translation>핸즈프리</translation>
    </message>
    <message>
        <location filename="../window.py" line="93"/>
        <source>Listen all the time; speak whenever you like</source>
        <translation>항상 듣고 있어요. 언제든 말씀하세요</translation>
    </message>
    <message>
        <location filename="../window.py" line="116"/>
        <source>loading…</source>
        <translation>불러오는 중…</translation>
    </message>
    <message>
        <location filename="../window.py" line="137"/>
        <source>Error while %s: %s</source>
        <translation>%s 중 오류: %s</translation>
    </message>
    <message>
        <location filename="../window.py" line="214"/>
        <source>no model loaded</source>
        <translation>불러온 모델 없음</translation>
    </message>
    <message>
        <location filename="../window.py" line="215"/>
        <source>Could not load the models: %s — choose others in Settings.</source>
        <translation>모델을 불러올 수 없어요: %s — 설정에서 다른 모델을 고르세요.</translation>
    </message>
    <message>
        <location filename="../window.py" line="226"/>
        <source>&lt;b&gt;No microphone&lt;/b&gt; — type your questions in the box below.</source>
        <translation>&lt;b&gt;마이크 없음&lt;/b&gt; — 아래 입력란에 질문을 입력하세요.</translation>
    </message>
    <message>
        <location filename="../window.py" line="229"/>
        <source>&lt;b&gt;No speaker&lt;/b&gt; — replies are shown but not heard.</source>
        <translation>&lt;b&gt;스피커 없음&lt;/b&gt; — 답변은 화면에만 보이고 들리지 않아요.</translation>
    </message>
</context>
<context>
    <name>PinPad</name>
    <message>
        <location filename="../pinpad.py" line="25"/>
        <source>Administrator PIN</source>
        <translation>관리자 PIN</translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <location filename="../settings.py" line="78"/>
        <source>Settings</source>
        <translation>설정</translation>
    </message>
    <message>
        <location filename="../settings.py" line="86"/>
        <source>LLM model (.gguf)</source>
        <translation>언어 모델 (.gguf)</translation>
    </message>
    <message>
        <location filename="../settings.py" line="96"/>
        <source>Voice engine</source>
        <translation>음성 엔진</translation>
    </message>
    <message>
        <location filename="../settings.py" line="97"/>
        <source>Piper voice (.onnx)</source>
        <translation>Piper 목소리 (.onnx)</translation>
    </message>
    <message>
        <location filename="../settings.py" line="104"/>
        <source>Speech recognition</source>
        <translation>음성 인식</translation>
    </message>
    <message>
        <location filename="../settings.py" line="105"/>
        <source>Language</source>
        <translation>언어</translation>
    </message>
    <message>
        <location filename="../settings.py" line="115"/>
        <source>Answer</source>
        <translation>대답</translation>
    </message>
    <message>
        <location filename="../settings.py" line="118"/>
        <source>Longest wait for unfinished words</source>
        <translation>끝나지 않은 말을 기다리는 최대 시간</translation>
    </message>
    <message>
        <location filename="../settings.py" line="121"/>
        <source>Fixed silence</source>
        <translation>고정 침묵</translation>
    </message>
    <message>
        <location filename="../settings.py" line="127"/>
        <source>VAD threshold</source>
        <translation>음성 감지 임계값</translation>
    </message>
    <message>
        <location filename="../settings.py" line="131"/>
        <source>System prompt</source>
        <translation>시스템 프롬프트</translation>
    </message>
    <message>
        <location filename="../settings.py" line="135"/>
        <source>Microphone</source>
        <translation>마이크</translation>
    </message>
    <message>
        <location filename="../settings.py" line="136"/>
        <source>Speaker</source>
        <translation>스피커</translation>
    </message>
    <message>
        <location filename="../settings.py" line="186"/>
        <source>Not applied: %s</source>
        <translation>적용되지 않음: %s</translation>
    </message>
</context>
<context>
    <name>StateIndicator</name>
    <message>
        <location filename="../indicator.py" line="21"/>
        <source>Loading</source>
        <translation>불러오는 중</translation>
    </message>
    <message>
        <location filename="../indicator.py" line="22"/>
        <source>Idle</source>
        <translation>대기</translation>
    </message>
    <message>
        <location filename="../indicator.py" line="23"/>
        <source>Waiting for the wake phrase</source>
        <translation>호출어를 기다리는 중</translation>
    </message>
    <message>
        <location filename="../indicator.py" line="24"/>
        <source>Listening</source>
        <translation>듣는 중</translation>
    </message>
    <message>
        <location filename="../indicator.py" line="25"/>
        <source>Hearing you</source>
        <translation>듣고 있어요</translation>
    </message>
    <message>
        <location filename="../indicator.py" line="26"/>
        <source>Thinking</source>
        <translation>생각 중</translation>
    </message>
    <message>
        <location filename="../indicator.py" line="27"/>
        <source>Speaking</source>
        <translation>말하는 중</translation>
    </message>
</context>
<context>
    <name>TimersPanel</name>
    <message>
        <location filename="../timers.py" line="65"/>
        <source>Stopwatch</source>
        <translation>스톱워치</translation>
    </message>
    <message>
        <location filename="../timers.py" line="66"/>
        <source>stopped</source>
        <translation>멈춤</translation>
    </message>
</context>
<context>
    <name>TurnView</name>
    <message>
        <location filename="../conversation.py" line="48"/>
        <source>clock</source>
        <translation>시계</translation>
    </message>
    <message>
        <location filename="../conversation.py" line="48"/>
        <source>timers</source>
        <translation>타이머</translation>
    </message>
    <message>
        <location filename="../conversation.py" line="49"/>
        <source>arithmetic</source>
        <translation>계산</translation>
    </message>
    <message>
        <location filename="../conversation.py" line="49"/>
        <source>units</source>
        <translation>단위 변환</translation>
    </message>
    <message>
        <location filename="../conversation.py" line="50"/>
        <source>actions</source>
        <translation>동작</translation>
    </message>
    <message>
        <location filename="../conversation.py" line="50"/>
        <source>spelling</source>
        <translation>철자</translation>
    </message>
    <message>
        <location filename="../conversation.py" line="51"/>
        <source>weather and news</source>
        <translation>날씨와 뉴스</translation>
    </message>
    <message>
        <location filename="../conversation.py" line="52"/>
        <source>calendar</source>
        <translation>달력</translation>
    </message>
    <message>
        <location filename="../conversation.py" line="52"/>
        <source>chance</source>
        <translation>동전과 주사위</translation>
    </message>
    <message>
        <location filename="../conversation.py" line="53"/>
        <source>out of reach</source>
        <translation>할 수 없는 일</translation>
    </message>
    <message>
        <location filename="../conversation.py" line="53"/>
        <source>this place</source>
        <translation>이곳 정보</translation>
    </message>
    <message>
        <location filename="../conversation.py" line="54"/>
        <source>jokes</source>
        <translation>농담</translation>
    </message>
    <message>
        <location filename="../conversation.py" line="54"/>
        <source>safety</source>
        <translation>안전</translation>
    </message>
    <message>
        <location filename="../conversation.py" line="55"/>
        <source>stopwatch</source>
        <translation>스톱워치</translation>
    </message>
    <message>
        <location filename="../conversation.py" line="55"/>
        <source>fun facts</source>
        <translation>재미있는 사실</translation>
    </message>
    <message>
        <location filename="../conversation.py" line="56"/>
        <source>lists and notes</source>
        <translation>목록과 메모</translation>
    </message>
    <message>
        <location filename="../conversation.py" line="56"/>
        <source>sun and moon</source>
        <translation>해와 달</translation>
    </message>
    <message>
        <location filename="../conversation.py" line="86"/>
        <source>(nothing was understood)</source>
        <translation>(알아듣지 못했어요)</translation>
    </message>
    <message>
        <location filename="../conversation.py" line="99"/>
        <source>speaking…</source>
        <translation>말하는 중…</translation>
    </message>
    <message>
        <location filename="../conversation.py" line="112"/>
        <source>%s to first sound</source>
        <translation>첫 소리까지 %s</translation>
    </message>
    <message>
        <location filename="../conversation.py" line="115"/>
        <source>end of turn: %s</source>
        <translation>발화 끝: %s</translation>
    </message>
    <message>
        <location filename="../conversation.py" line="117"/>
        <source>instant reply</source>
        <translation>즉시 답변</translation>
    </message>
    <message>
        <location filename="../conversation.py" line="119"/>
        <source>%s skill</source>
        <translation>%s 기능</translation>
    </message>
    <message>
        <location filename="../conversation.py" line="121"/>
        <source>no words heard</source>
        <translation>알아들은 말 없음</translation>
    </message>
    <message>
        <location filename="../conversation.py" line="124"/>
        <source>not heard well enough to answer (least sure word %s)</source>
        <translation>잘 못 알아들어서 답하지 않음 (가장 불확실한 단어 %s)</translation>
    </message>
    <message>
        <location filename="../conversation.py" line="127"/>
        <source>hedged, %s</source>
        <translation>확실하지 않음, %s</translation>
    </message>
    <message>
        <location filename="../conversation.py" line="129"/>
        <source>interrupted</source>
        <translation>중단됨</translation>
    </message>
</context>
</TS>
