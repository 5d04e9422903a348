cd .gpu-rust
R=$OUT; O=/tmp/o; mkdir -p $O
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH PATH=/usr/local/cuda/bin:$PATH
date -u; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader
(DIR=oxide OUT=$O/oxide bash oxide/device_run.sh 2>&1 | tail -12)
ptxas -arch=sm_90a before/attn.ptx -o before/attn.cubin 2>&1 | tail -2
(cd attn && BEFORE_LIB=$PWD/../before/libbefore.so BEFORE_PTX=$PWD/../before/attn.cubin FULL_TIMEOUT=450 OUT=$O/attn bash attention_device_run.sh 5 2>&1 | tail -60)
tar czf $R/a.tgz -C $O .
