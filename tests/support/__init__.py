"""What the test suites share, kept apart from the tests themselves: the
executors (`wgpu_device` on lavapipe, `tint` through Dawn's node binding, the
Metal CPU shim `metal_shim/`, the PTX emulator `ptx_emulator` behind the
stand-in libcuda of `ptx_runner`, the reference interpreter's `interp_runner`),
the NumPy references of the compute samples (`references`), and test data and
builders (`frontend`, `lsp`, `formatting`, `mistakes`, `generate_fakes`).  A
test module imports from here, never from another test module."""
