cd .gpu-rust
R=$OUT; O=/tmp/o; mkdir -p $O/epi
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH PATH=/usr/local/cuda/bin:$PATH
date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 200 ./rust_kernels --ptx kernels.ptx --out $O/epi --pipeline-before before/kernels.ptx --rounds 5 > $O/epi.txt 2>&1; echo "epi rc $?"; tail -14 $O/epi.txt
for v in new before; do
 if [ $v = new ]; then lib=$PWD/attn/libsmemdesc_rust_kernels.so; ptx=kernels.ptx; else lib=$PWD/before/libbefore.so; ptx=before/kernels.ptx; fi
 timeout 120 python3 grouped_same_process.py $lib $ptx $O/g_$v 5 > $O/g_$v.txt 2>&1; echo "g $v rc $?"; tail -6 $O/g_$v.txt | cut -c1-400
 timeout 100 python3 conv_same_process.py $lib $ptx $O/c_$v 5 > $O/c_$v.txt 2>&1; echo "c $v rc $?"; tail -6 $O/c_$v.txt | cut -c1-400
done
tar czf $R/b.tgz -C $O .
