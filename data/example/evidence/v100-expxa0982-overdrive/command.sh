#!/bin/sh
# v100-expxa0982-overdrive: exact launch command (2025-11-03, temporary private clone on GPU 0)
CUDA_VISIBLE_DEVICES=0 EXPXA_PARALLEL_ACT_PREP=1 EXPXA_OVERDRIVE=1 /opt/bench/expxa-0982fd3/bin/expxa-server \
  --model /models/Qwen3-30B-A3B-Q4_K_M.gguf \
  --n-gpu-layers 99 --n-cpu-moe 40 \
  --threads 8 --threads-batch 20 \
  --ctx-size 8192 --cache-type-k q8_0 --cache-type-v q8_0 \
  --host 127.0.0.1 --port 18095

# activation probe (run at 14:05:31Z, before the two launch attempts)
EXPXA_OVERDRIVE=1 /opt/bench/expxa-0982fd3/bin/expxa-probe activation --model /models/Qwen3-30B-A3B-Q4_K_M.gguf --device 0
