#!/usr/bin/env bash
# Device run of the attention kernel (issue 31), from a folder prepared by
# gpu/attention_prepare.sh (attn.ptx, libsmemdesc_rust_kernels.so, attention_same_process.py and
# this script): the ptxas summary of the module (registers, spills, warnings, SASS instruction
# counts), the smoke run (exactness on small shapes, both negative controls), then the full
# measurement (16 configurations) if the smoke passed. $1: rounds (default 7); EXPERIMENTS=1 also
# times the experiments (d = 128 causal's variant 5, d = 64's 10: --experiments); BEFORE_LIB=LIB2.so BEFORE_PTX=PTX2 times a recorded
# build beside it in the same rounds. Results to $OUT.
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-} PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
O=${OUT:-/tmp/out}; mkdir -p $O
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader
ptxas -arch=sm_90a -v attn.ptx -o attn.cubin > $O/ptxas.txt 2>&1 || echo "ptxas failed"
grep -iE "warn|error" $O/ptxas.txt | head -20
for k in $(grep -oE '^\.visible \.entry attn_[a-z0-9_]*' attn.ptx | awk '{print $3}'); do
  echo "$k: $(grep -A3 "entry function '$k'" $O/ptxas.txt | grep -oE 'Used [0-9]+ registers|[0-9]+ bytes spill stores, [0-9]+ bytes spill loads|[0-9]+ bytes stack frame' | paste -sd ', ')"
done
cuobjdump -sass attn.cubin 2>/dev/null | grep -oE '\b(HGMMA|UTMALDG|UTMASTG)\.[A-Z0-9x.]*' | sort | uniq -c | head -20
MOD=attn.cubin; [ -s attn.cubin ] || MOD=attn.ptx
timeout 90 python3 attention_same_process.py ./libsmemdesc_rust_kernels.so $MOD $O --smoke > $O/smoke.log 2>&1; echo "smoke rc $?"
cat $O/smoke.log | cut -c1-600
ok=$(python3 -c "
import json,sys
d=json.load(open('$O/attention_smoke.json'))
print(int(all((not r['nan']) and r['max_abs_err']<0.05 and all((not r[k]['nan']) and r[k]['max_abs_err']<0.05 for k in r if k.startswith('ours_')) for r in d['smoke']) and all(c['fails'] for c in d['negative_controls'])))" 2>/dev/null)
echo "smoke ok: $ok"
if [ "$ok" = "1" ] && [ "${SMOKE_ONLY:-0}" = "0" ]; then
  timeout ${FULL_TIMEOUT:-330} python3 attention_same_process.py ./libsmemdesc_rust_kernels.so $MOD $O --rounds ${1:-7} ${ONLY:+--only $ONLY} ${EXPERIMENTS:+--experiments} ${BEFORE_LIB:+--before $BEFORE_LIB $BEFORE_PTX} > $O/full.log 2>&1; echo "full rc $?"
  cat $O/full.log | cut -c1-700
fi
