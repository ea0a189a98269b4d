"""Bazel rules for 着色 shaders (README.md beside this file).

zhuose_library: modules (名。着色器。豫) other modules import, with their package's 包.json.
zhuose_shader:  one shader source translated to WGSL, MSL and/or PTX; one action per target,
                run by the build service as a persistent worker (JSON protocol), or as a
                plain action when workers are off (--strategy=Zhuose=local, remote execution).
"""

ZhuoseInfo = provider(
    doc = "The files a module's translation reads besides the builtin declarations.",
    fields = {
        "sources": "depset of the modules and the 包.json of their packages, transitively",
        "manifests": "depset of those 包.json files (the service is told where the packages are)",
    },
)

#: each target and the extension of its output
EXTENSIONS = {"wgsl": ".wgsl", "msl": ".metal", "ptx": ".ptx"}

_COMMON = {
    "deps": attr.label_list(providers = [ZhuoseInfo], doc = "zhuose_library targets this imports"),
    "manifest": attr.label(allow_single_file = True, doc = "the 包.json of the sources' package"),
    "compiler": attr.label(
        default = Label("//:zhuose"),
        executable = True,
        cfg = "exec",
        allow_single_file = True,
        doc = "the 着色 command (python -m zhuose.cli)",
    ),
}

def _sources(ctx, own):
    return depset(own + ctx.files.manifest, transitive = [d[ZhuoseInfo].sources for d in ctx.attr.deps])

def _manifests(ctx):
    return depset(ctx.files.manifest, transitive = [d[ZhuoseInfo].manifests for d in ctx.attr.deps])

def _library_impl(ctx):
    return [
        ZhuoseInfo(sources = _sources(ctx, ctx.files.srcs), manifests = _manifests(ctx)),
        DefaultInfo(files = depset(ctx.files.srcs)),
    ]

zhuose_library = rule(
    implementation = _library_impl,
    attrs = dict(_COMMON, srcs = attr.label_list(allow_files = True, doc = "the modules (名。着色器。豫)")),
    doc = "Modules that zhuose_shader and other libraries import.",
)

def _translate(ctx, target, inputs, manifests):
    """One action: the build service writes one target's text to a declared output."""
    output = ctx.actions.declare_file(ctx.label.name + EXTENSIONS[target])
    request = ctx.actions.args()
    request.add("--target", target)
    request.add("--output", output)
    request.add_all(manifests, before_each = "--package")     # the execroot's folders are links: name the packages
    request.add(ctx.file.src)
    request.use_param_file("@%s", use_always = True)     # a worker gets the file's lines as its arguments
    request.set_param_file_format("multiline")
    ctx.actions.run(
        executable = ctx.executable.compiler,
        arguments = ["serve", "--build", request],
        inputs = inputs,
        outputs = [output],
        mnemonic = "Zhuose",
        use_default_shell_env = True,       # --action_env: ZHUOSE_PYTHON, PATH
        progress_message = "Zhuose %s %s" % (target, ctx.label),
        execution_requirements = {"supports-workers": "1", "requires-worker-protocol": "json"},
    )
    return output

def _shader_impl(ctx):
    inputs = _sources(ctx, [ctx.file.src])
    manifests = _manifests(ctx)
    outputs = [_translate(ctx, target, inputs, manifests) for target in ctx.attr.targets]
    return [DefaultInfo(files = depset(outputs))]

zhuose_shader = rule(
    implementation = _shader_impl,
    attrs = dict(
        _COMMON,
        src = attr.label(allow_single_file = True, mandatory = True, doc = "the shader source (名。着色器。豫)"),
        targets = attr.string_list(default = ["wgsl"], doc = "any of wgsl, msl, ptx"),
    ),
    doc = "Translates a shader source; the outputs are <name>.wgsl, <name>.metal, <name>.ptx.",
)
