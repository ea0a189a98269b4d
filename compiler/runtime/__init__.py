"""Runtimes: running translated kernels on a device (wgpu for WGSL, the CUDA
driver for PTX).  They read the back ends' output and layouts; no back end
imports them, so a code generator never needs a GPU library."""
