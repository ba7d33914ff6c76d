"""What of a Python policy's class enters its runs' identity when its module has no source file
(a class defined in a notebook, say): a digest of the class's source text, or of its methods'
where Python cannot find the class's (notebook classes before Python 3.13)."""

import hashlib
import inspect


def _function_source(function):
    try:
        return inspect.getsource(function)
    except (OSError, TypeError):
        code = function.__code__
        # Without source, the bytecode and constants, which change with the code.
        return repr((code.co_code, code.co_consts, code.co_names, code.co_varnames))


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
