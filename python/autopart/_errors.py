"""autopart.Error: a request autopart could not carry out."""


class Error(ValueError):
    """A program that does not parse, an unknown device, a malformed mesh...

    The message is what the CLI prints, e.g.
    ``model.mlir:3:14: error: expected ':', found ','``; ``file``, ``line``
    and ``col`` locate the first error when it has a place (else None), and
    ``diagnostics`` lists every diagnostic as a dict (severity, file, line,
    col, message, text).
    """

    def __init__(self, message, file=None, line=None, col=None, diagnostics=()):
        super().__init__(message)
        self.file = file
        self.line = line
        self.col = col
        self.diagnostics = list(diagnostics)

    @classmethod
    def from_diagnostics(cls, diagnostics):
        errors = [d for d in diagnostics if d["severity"] == "error"] or list(diagnostics)
        message = "\n".join(d["text"] for d in errors) or "error: request failed"
        first = errors[0] if errors else {}
        return cls(message,
                   file=first.get("file") or None,
                   line=first.get("line") or None,
                   col=first.get("col") or None,
                   diagnostics=diagnostics)


class Warning(UserWarning):  # noqa: A001 (autopart.Warning, as autopart.Error)
    """What autopart noted on the way (an op without a sharding rule...)."""
