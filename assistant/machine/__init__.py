"""Machine: what this computer can run.

In: the hardware, the installed packages and the model files. Out: facts and plans:
GPUs, cores and memory (:mod:`.hardware`), audio devices (:mod:`.devices`), which models
exist (:mod:`.models`, :mod:`.whisper_parts`), what a GGUF says about itself
(:mod:`.gguf_info`), how many layers go to the GPU (:mod:`.planner`), whether this
llama.cpp build survives a real prompt here (:mod:`.native_probe`), random-weight models
to time a size (:mod:`.synthetic`) and a network namespace with loopback only
(:mod:`.netns`). Any part may ask; nothing here runs a turn."""
