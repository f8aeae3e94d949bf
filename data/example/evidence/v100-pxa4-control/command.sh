#!/bin/sh
# v100-pxa4-control: exact launch command (2025-11-03, temporary private clone on GPU 0)
CUDA_VISIBLE_DEVICES=0 /opt/bench/pxa4-4.0.3/bin/pxa4 serve \
  --model /models/Qwen3-30B-A3B-Q4_K_M.gguf \
  --gpu-layers 99 --cpu-expert-banks 40 \
  --threads 8 --batch-threads 20 \
  --ctx 8192 --kv-type q8_0 \
  --host 127.0.0.1 --port 18093
