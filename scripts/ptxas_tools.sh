#!/usr/bin/env bash
# ptxas and nvdisasm without the CUDA toolkit: NVIDIA's PyPI wheels, installed once into a cache
# folder (pip install --target, no root needed, nothing outside the cache touched).
#
#   eval "$(bash scripts/ptxas_tools.sh)"   # exports PTXAS and NVDISASM (installs on first use)
#   . scripts/ptxas_tools.sh && ptxas_tools # the same from a sourcing script; 1 + a reason if not
#
# Pinned: the budget (gpu/ptxas-budget.tsv) holds what this ptxas reports, and another ptxas
# allocates registers differently. ptxas 12.9.86 is the release the project's notes use
# (gpu/README.md); the nvdisasm wheel exists for CUDA 13 only and reads ptxas 12.9's cubins (it
# warns that it switches to the "Old format", and disassembles).
#
# PTXAS already set: used, if it is the pinned release (checked with --version), else refused.
# Cache: $SMEMDESC_TOOLS_CACHE, else ${XDG_CACHE_HOME:-$HOME/.cache}/smemdesc.
PTXAS_PIN_WHEEL="nvidia-cuda-nvcc-cu12==12.9.86"
PTXAS_PIN_VERSION="V12.9.86"
NVDISASM_PIN_WHEEL="nvidia-cuda-nvdisasm==13.5.37"

ptxas_tools() {
    PTXAS_TOOLS_WHY=""
    local cache dir tmp py
    cache="${SMEMDESC_TOOLS_CACHE:-${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/smemdesc}"
    dir="$cache/cuda-tools-${PTXAS_PIN_WHEEL##*==}-nvdisasm-${NVDISASM_PIN_WHEEL##*==}"
    if [ ! -x "$dir/nvidia/cuda_nvcc/bin/ptxas" ] || [ ! -x "$dir/nvidia/cu13/bin/nvdisasm" ]; then
        py=""
        for c in python3 python; do
            if command -v "$c" > /dev/null && "$c" -m pip --version > /dev/null 2>&1; then py=$c; break; fi
        done
        if [ -z "$py" ]; then
            PTXAS_TOOLS_WHY="no pip (python3 -m pip) to install $PTXAS_PIN_WHEEL from PyPI"
            return 1
        fi
        mkdir -p "$cache" || { PTXAS_TOOLS_WHY="cannot create $cache"; return 1; }
        # Into a fresh folder, moved into place when complete: a failed or interrupted install
        # leaves no half a toolkit for the next run.
        tmp=$(mktemp -d "$cache/install.XXXXXX")
        if ! PIP_ROOT_USER_ACTION=ignore "$py" -m pip install --quiet --disable-pip-version-check \
            --no-deps --target "$tmp" "$PTXAS_PIN_WHEEL" "$NVDISASM_PIN_WHEEL" > "$tmp.log" 2>&1; then
            PTXAS_TOOLS_WHY="pip install $PTXAS_PIN_WHEEL $NVDISASM_PIN_WHEEL failed: $(tail -n 3 "$tmp.log" | tr '\n' ' ')"
            rm -rf "$tmp" "$tmp.log"
            return 1
        fi
        rm -f "$tmp.log"
        rm -rf "$dir"
        mv "$tmp" "$dir"
    fi
    for b in "$dir/nvidia/cuda_nvcc/bin/ptxas" "$dir/nvidia/cu13/bin/nvdisasm"; do
        if [ ! -x "$b" ]; then
            PTXAS_TOOLS_WHY="the wheels installed, but $b is not there (the wheel's layout changed?)"
            return 1
        fi
    done
    if [ -n "${PTXAS:-}" ] && [ "$PTXAS" != "$dir/nvidia/cuda_nvcc/bin/ptxas" ]; then
        if ! "$PTXAS" --version 2>/dev/null | grep -q "$PTXAS_PIN_VERSION\$"; then
            PTXAS_TOOLS_WHY="PTXAS=$PTXAS is not ptxas $PTXAS_PIN_VERSION (the budget's release; unset PTXAS to use the pinned wheel)"
            return 1
        fi
    else
        PTXAS="$dir/nvidia/cuda_nvcc/bin/ptxas"
    fi
    NVDISASM="${NVDISASM:-$dir/nvidia/cu13/bin/nvdisasm}"
    export PTXAS NVDISASM
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    set -euo pipefail
    if ! ptxas_tools; then
        echo "ptxas_tools.sh: $PTXAS_TOOLS_WHY" >&2
        exit 1
    fi
    printf 'export PTXAS=%q NVDISASM=%q\n' "$PTXAS" "$NVDISASM"
fi
