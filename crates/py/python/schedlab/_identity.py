"""What of a Python policy's class enters its runs' identity when its module has no source file
(a class defined in a notebook, say): a digest of the class's source text, or of its methods'
where Python cannot find the class's (notebook classes before Python 3.13)."""

import hashlib
import inspect
import os


def _stable(value):
    """A text of a code object's constant that is the same in every process: a nested code
    object (a lambda, a comprehension, an inner function) by its own bytecode and constants, not
    by its repr (which holds its memory address); a frozenset's members sorted (their order
    follows string hashing, which changes between processes)."""
    if inspect.iscode(value):
        return _code_text(value)
    if isinstance(value, tuple):
        return "(" + ", ".join(_stable(item) for item in value) + ")"
    if isinstance(value, frozenset):
        return "frozenset({" + ", ".join(sorted(_stable(item) for item in value)) + "})"
    return repr(value)


def _code_text(code):
    return "code(" + ", ".join(
        [repr(code.co_code), _stable(code.co_consts), repr(code.co_names), repr(code.co_varnames)]
    ) + ")"


def _function_source(function):
    try:
        return inspect.getsource(function)
    except (OSError, TypeError):
        # Without source, the bytecode and constants, which change with the code.
        return _code_text(function.__code__)


def class_source_digest(cls):
    """SHA-256 (hex, first 16 characters) of the class's source, or None when Python keeps no
    trace of it."""
    try:
        text = inspect.getsource(cls)
    except (OSError, TypeError):
        parts = [cls.__qualname__]
        for name, member in sorted(vars(cls).items()):
            function = getattr(member, "__func__", member)
            if inspect.isfunction(function):
                parts.append(f"{name}\n{_function_source(function)}")
            elif not name.startswith("__"):
                parts.append(f"{name} = {member!r}")
        if len(parts) == 1:
            return None
        text = "\n".join(parts)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _installed_roots():
    """The folders of the standard library and of installed packages (site-packages)."""
    import site
    import sysconfig

    roots = set()
    for key in ("stdlib", "platstdlib", "purelib", "platlib"):
        path = sysconfig.get_paths().get(key)
        if path:
            roots.add(os.path.realpath(path))
    for path in list(getattr(site, "getsitepackages", lambda: [])()) + [site.getusersitepackages()]:
        roots.add(os.path.realpath(path))
    return roots


def mro_files(cls):
    """The source files of the modules that define the class's bases (its MRO but ``object``),
    in MRO order, leaving out the standard library's and installed packages': editing a base
    class in a user's module then reruns the runs, as editing the class's own module does."""
    import sys

    roots = _installed_roots()
    files = []
    for base in cls.__mro__:
        module = sys.modules.get(getattr(base, "__module__", None) or "")
        path = getattr(module, "__file__", None)
        if not path or not os.path.isfile(path):
            continue
        real = os.path.realpath(path)
        if any(real == root or real.startswith(root + os.sep) for root in roots):
            continue
        if path not in files:
            files.append(path)
    return files
