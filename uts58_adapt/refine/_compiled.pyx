# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The refinement's hot loops, compiled (optional; docs/compiled.md).

Each function here is a typed twin of a pure-Python function, which stays the readable
reference (``_dispatch.PURE`` names them; tests/test_compiled.py requires identical output):

- :func:`terminate_unchecked`: ``termination.terminate_unchecked``, UTS #58 §3.5.1;
- :func:`path_end`: ``migration._path_end`` (§10.1: the end of a URL after its host);
- :func:`email_start_window`: ``migration._email_start`` (§5.2 on a bounded window);
- :func:`host_run_end`, :func:`host_run_start`: ``host_chars``'s (UTS #46 §4, IDNA2008);
- :func:`minimal_escape_part`: ``part_escaping.minimal_escape_part``, §4.1;
- :func:`a_label`, :func:`punycode_length`: ``labels``' (UTS #46 §4.2 ToASCII, RFC 3492 §6.3).

No table is compiled in: :func:`set_tables` receives the properties of the Unicode version
in use (``properties.FLAGS``, ``properties.BRACKET``, from ``$UTS58_UNICODE_VERSION``'s
tables), and :func:`set_host_loader` a loader for the host-character table (one byte per
code point, built from the same version's ``_idna_tables``), called on the first non-ASCII
host character.
"""

from cpython.mem cimport PyMem_Free, PyMem_Malloc
from cpython.unicode cimport PyUnicode_GET_LENGTH


cdef extern from "Python.h":
    int PyUnicode_KIND(object o)
    void* PyUnicode_DATA(object o)
    Py_UCS4 PyUnicode_READ(int kind, void* data, Py_ssize_t index) nogil
    bint PyUnicode_IS_ASCII(object o)


#: Bumped whenever a signature or a meaning changes: ``_dispatch`` ignores a stale build.
ABI = 2

# The Link_Term codes and the bits of properties.FLAGS (properties.py checks them against
# every version's tables; _dispatch checks them against these).
cdef enum:
    INCLUDE = 0
    HARD = 1
    SOFT = 2
    OPEN = 3
    CLOSE = 4
    TERM_MASK = 7
    EMAIL_BIT = 8
    # termination.NONE ... DIRECTIVE and STACK_LIMIT.
    NONE = 0
    PATH = 1
    QUERY = 2
    FRAGMENT = 3
    DIRECTIVE = 4
    STACK_LIMIT = 125
    # migration.MAX_LOCAL_PART, len("mailto:"), host_chars.MAX_HOST.
    MAX_LOCAL_PART = 256
    MAILTO_LEN = 7
    MAX_HOST = 253

CONSTANTS = (INCLUDE, HARD, SOFT, OPEN, CLOSE, TERM_MASK, EMAIL_BIT,
             NONE, PATH, QUERY, FRAGMENT, DIRECTIVE, STACK_LIMIT, MAX_LOCAL_PART, MAX_HOST)

cdef bytes _flags_ref = None
cdef const unsigned char* _flags = NULL
cdef dict _bracket = None
cdef object _percent_escape = None
cdef object _host_loader = None
cdef bytes _host_ref = None
cdef const unsigned char* _host = NULL


def set_tables(bytes flags not None, dict bracket not None):
    """Install the properties of the Unicode version in use: ``properties.FLAGS`` (one byte
    per code point, 0x110000 of them) and ``properties.BRACKET``."""
    global _flags_ref, _flags, _bracket
    if len(flags) != 0x110000:
        raise ValueError("flags must hold one byte per code point")
    _flags_ref = flags
    _flags = <const unsigned char*> flags
    _bracket = bracket


def set_percent_escape(percent_escape):
    """Install ``part_escaping.percent_escape`` (§4.1's percentEscape), for :func:`minimal_escape_part`."""
    global _percent_escape
    _percent_escape = percent_escape


def set_host_loader(host_loader):
    """Install ``host_loader()``: the host-character table (0x110000 bytes, non-zero for a host
    character), called once, on the first non-ASCII code point a host run reads."""
    global _host_loader, _host_ref, _host
    _host_loader = host_loader
    _host_ref = None
    _host = NULL


cdef int _load_host() except -1:
    global _host_ref, _host
    if _host_loader is None:
        raise RuntimeError("set_host_loader() was not called")
    table = _host_loader()
    if not isinstance(table, bytes) or len(table) != 0x110000:
        raise ValueError("the host-character table must be 0x110000 bytes")
    _host_ref = table
    _host = <const unsigned char*> _host_ref
    return 0


cdef inline bint _ascii_host(Py_UCS4 ch) noexcept nogil:
    # host_chars.ASCII_HOST_CHARS: A-Z a-z 0-9 - .
    return (0x61 <= ch <= 0x7A) or (0x41 <= ch <= 0x5A) or (0x30 <= ch <= 0x39) or ch == 0x2D or ch == 0x2E


cdef inline int _is_host(Py_UCS4 ch) except -1:
    if ch < 0x80:
        return _ascii_host(ch)
    if _host == NULL:
        _load_host()
    return _host[ch] != 0


cdef inline bint _directive_at(int kind, void* data, Py_ssize_t n, Py_ssize_t i) noexcept nogil:
    """``text.startswith(":~:", i)``."""
    return (
        i + 2 < n
        and PyUnicode_READ(kind, data, i) == 0x3A
        and PyUnicode_READ(kind, data, i + 1) == 0x7E
        and PyUnicode_READ(kind, data, i + 2) == 0x3A
    )


cdef inline bint _is_terminator(int part, Py_UCS4 ch) noexcept nogil:
    """Table 3-3's one-code-point terminators: ``?#`` of a path, ``#`` of a query."""
    if part == PATH:
        return ch == 0x3F or ch == 0x23
    if part == QUERY:
        return ch == 0x23
    return False


cdef inline bint _is_clear_stack_open(int part, Py_UCS4 ch) noexcept nogil:
    """Table 3-3's one-code-point ClearStackOpen elements: ``/``; ``=&``; ``&,``."""
    if part == PATH:
        return ch == 0x2F
    if part == QUERY:
        return ch == 0x3D or ch == 0x26
    if part == DIRECTIVE:
        return ch == 0x26 or ch == 0x2C
    return False


cdef inline bint _bracket_matches(Py_UCS4 close, Py_UCS4 opener) except -1:
    """``BRACKET[close] == opener`` (a Close code point without a pair matches nothing)."""
    value = _bracket.get(<long> close)
    return value is not None and <long> value == <long> opener


cdef Py_ssize_t _terminate(str text, Py_ssize_t start, int part, Py_ssize_t last_safe) except -2:
    """§3.5.1, as ``termination.terminate_unchecked`` (one code point at a time)."""
    cdef Py_ssize_t n = PyUnicode_GET_LENGTH(text)
    cdef int kind = PyUnicode_KIND(text)
    cdef void* data = PyUnicode_DATA(text)
    cdef Py_UCS4 stack[STACK_LIMIT]
    cdef int depth = 0
    cdef int previous_part = NONE
    cdef Py_ssize_t i = start
    cdef Py_ssize_t length
    cdef Py_UCS4 ch
    cdef unsigned char term
    if _flags == NULL:
        raise RuntimeError("set_tables() was not called")
    if last_safe < 0:
        last_safe = start
    while i < n:
        ch = PyUnicode_READ(kind, data, i)
        if part != NONE and (_is_terminator(part, ch) or (part == FRAGMENT and _directive_at(kind, data, n, i))):
            previous_part = part
            part = NONE
        if part == NONE:
            length = 1
            if ch == 0x2F:
                part = PATH
            elif ch == 0x3F:
                part = QUERY
            elif ch == 0x23:
                part = FRAGMENT
            else:
                if (previous_part != FRAGMENT and previous_part != DIRECTIVE) or not _directive_at(kind, data, n, i):
                    return last_safe
                part = DIRECTIVE
                length = 3
            i += length
            last_safe = i
            depth = 0
            continue
        if _is_clear_stack_open(part, ch):
            i += 1
            last_safe = i
            depth = 0
            continue
        if part == DIRECTIVE and _directive_at(kind, data, n, i):
            i += 3
            last_safe = i
            depth = 0
            continue
        term = _flags[ch] & TERM_MASK
        if term == INCLUDE:
            i += 1
            last_safe = i
        elif term == SOFT:
            i += 1
        elif term == HARD:
            return last_safe
        elif term == OPEN:
            if depth == STACK_LIMIT:
                return last_safe
            stack[depth] = ch
            depth += 1
            i += 1
            last_safe = i
        else:  # CLOSE
            if depth == 0:
                return last_safe
            depth -= 1
            if not _bracket_matches(ch, stack[depth]):
                return last_safe
            i += 1
            last_safe = i
    return last_safe


def terminate_unchecked(str text not None, Py_ssize_t start, int part=NONE, Py_ssize_t last_safe=-1):
    """``termination.terminate_unchecked``: the end of the link whose host ends at ``start`` (§3.5.1).

    As the pure function, a ``start`` past the end gives ``last_safe`` (``start`` when unset);
    a negative one is an error (the pure function would read from the end of the text).
    """
    if start < 0:
        raise ValueError("start is outside the text")
    if start > PyUnicode_GET_LENGTH(text):
        return start if last_safe < 0 else last_safe
    if not NONE <= part <= DIRECTIVE:
        raise ValueError("part is not a part of Table 3-3")
    return _terminate(text, start, part, last_safe)


def path_end(str text not None, Py_ssize_t start, Py_ssize_t raw_end, safe=None, bint lane=True):
    """``migration._path_end``: the end of a URL whose host and port end at ``start`` (§10.1).

    The pure function avoids scanning the backend's path in Python; here the scan of
    §3.5.1 from ``start`` is cheap, and gives the same end (``safe``, ``raw_end`` and
    ``lane`` only choose the pure function's shortcuts).
    """
    cdef Py_ssize_t n = PyUnicode_GET_LENGTH(text)
    cdef Py_UCS4 ch
    if not 0 <= start <= n:
        raise ValueError("start is outside the text")
    if start == n:
        return start
    ch = PyUnicode_READ(PyUnicode_KIND(text), PyUnicode_DATA(text), start)
    if ch != 0x2F and ch != 0x3F and ch != 0x23:
        return start  # no path, query or fragment
    return _terminate(text, start, NONE, -1)


cdef inline bint _mailto_at(int kind, void* data, Py_ssize_t i) noexcept nogil:
    """``mailto:`` in any ASCII case at ``i`` (the caller knows 7 code points are there).

    ``c | 0x20`` is one of ``mailto``'s letters only for that letter in either case.
    """
    cdef unsigned int c
    cdef unsigned int[6] word = [0x6D, 0x61, 0x69, 0x6C, 0x74, 0x6F]
    cdef int k
    for k in range(6):
        c = <unsigned int> PyUnicode_READ(kind, data, i + k)
        if c >= 0x80 or (c | 0x20) != word[k]:
            return False
    return PyUnicode_READ(kind, data, i + 6) == 0x3A


def email_start_window(str text not None, Py_ssize_t at, local_run=None):
    """``migration._email_start``: §5.2's start of the email whose ``@`` is at ``text[at]``, or None.

    The local part is scanned back over Link_Email code points and ``.``, at most
    ``MAX_LOCAL_PART`` of them (a longer one gives None); a ``mailto:`` in any ASCII
    case right before it is included.  ``local_run`` is the pure function's regex (unused).
    """
    cdef Py_ssize_t n = PyUnicode_GET_LENGTH(text)
    cdef int kind = PyUnicode_KIND(text)
    cdef void* data = PyUnicode_DATA(text)
    cdef Py_ssize_t lo, base, i, local_start
    cdef Py_UCS4 ch
    if _flags == NULL:
        raise RuntimeError("set_tables() was not called")
    if not 0 <= at < n:
        raise ValueError("at is outside the text")
    if at == 0 or PyUnicode_READ(kind, data, at - 1) == 0x2E:
        return None
    lo = at - MAX_LOCAL_PART - MAILTO_LEN
    base = lo if lo > 0 else 0
    i = at - 1
    while i >= base:
        ch = PyUnicode_READ(kind, data, i)
        if ch != 0x2E and not (_flags[ch] & EMAIL_BIT):
            break
        i -= 1
    local_start = i + 1
    if local_start == at or PyUnicode_READ(kind, data, local_start) == 0x2E:
        return None
    for i in range(local_start, at - 1):
        if PyUnicode_READ(kind, data, i) == 0x2E and PyUnicode_READ(kind, data, i + 1) == 0x2E:
            return None
    if lo > 0 and local_start - lo < MAILTO_LEN:
        return None  # the local part runs past the window: too long
    if local_start - MAILTO_LEN >= base and _mailto_at(kind, data, local_start - MAILTO_LEN):
        return local_start - MAILTO_LEN
    return local_start


def host_run_end(str text not None, Py_ssize_t pos):
    """``host_chars.host_run_end``: the end of the run of host characters at ``pos`` (at most ``MAX_HOST + 1``).

    A ``pos`` at or past the end gives ``pos``, as the pure function does; a negative one is an error.
    """
    cdef Py_ssize_t n = PyUnicode_GET_LENGTH(text)
    cdef int kind = PyUnicode_KIND(text)
    cdef void* data = PyUnicode_DATA(text)
    cdef Py_ssize_t i = pos
    cdef Py_ssize_t limit
    if pos < 0:
        raise ValueError("pos is outside the text")
    if pos >= n:
        return pos
    limit = pos + MAX_HOST + 1
    if limit > n:
        limit = n
    while i < limit and _is_host(PyUnicode_READ(kind, data, i)):
        i += 1
    return i


def host_run_start(str text not None, Py_ssize_t pos, Py_ssize_t floor=0):
    """``host_chars.host_run_start``: the start of the run of host characters ending at ``pos``, not before ``floor``."""
    cdef int kind = PyUnicode_KIND(text)
    cdef void* data = PyUnicode_DATA(text)
    cdef Py_ssize_t i = pos
    if not 0 <= pos <= PyUnicode_GET_LENGTH(text):
        raise ValueError("pos is outside the text")
    if floor < 0:
        floor = 0
    while i > floor and _is_host(PyUnicode_READ(kind, data, i - 1)):
        i -= 1
    return i


def minimal_escape_part(str text not None, int part, bint last=False):
    """``part_escaping.minimal_escape_part``: §4.1 on one URL part (with the module's two deviations)."""
    cdef Py_ssize_t n = PyUnicode_GET_LENGTH(text)
    cdef int kind = PyUnicode_KIND(text)
    cdef void* data = PyUnicode_DATA(text)
    cdef Py_UCS4 stack[STACK_LIMIT]
    cdef int depth = 0
    cdef Py_ssize_t i = 0
    cdef Py_ssize_t copied_already = 0
    cdef Py_ssize_t structure_end = 0
    cdef Py_UCS4 ch
    cdef unsigned char lt
    cdef list output
    if _flags == NULL or _percent_escape is None:
        raise RuntimeError("set_tables() and set_percent_escape() were not called")
    if not PATH <= part <= DIRECTIVE:
        raise KeyError(part)
    output = None
    while i < n:
        ch = PyUnicode_READ(kind, data, i)
        if _is_terminator(part, ch) or (part == FRAGMENT and ch == 0x3A and _directive_at(kind, data, n, i)):
            pass  # LT = Hard
        elif _is_clear_stack_open(part, ch) or (part == DIRECTIVE and ch == 0x3A and _directive_at(kind, data, n, i)):
            depth = 0
            i += 3 if ch == 0x3A else 1
            structure_end = i
            continue
        else:
            lt = _flags[ch] & TERM_MASK
            if lt == SOFT or lt == INCLUDE:
                i += 1
                continue
            if lt == OPEN:
                if depth < STACK_LIMIT:
                    stack[depth] = ch
                    depth += 1
                    i += 1
                    continue
            elif lt == CLOSE and depth and _bracket_matches(ch, stack[depth - 1]):
                depth -= 1
                i += 1
                continue
            # else Hard
        if output is None:
            output = []
        output.append(text[copied_already:i])
        output.append(_percent_escape(text[i]))
        copied_already = i + 1
        i += 1
    if (
        last
        and copied_already < n
        and n - 1 >= structure_end
        and (_flags[PyUnicode_READ(kind, data, n - 1)] & TERM_MASK) == SOFT
    ):
        if output is None:
            output = []
        output.append(text[copied_already : n - 1])
        output.append(_percent_escape(text[n - 1]))
    elif output is None:
        return text
    else:
        output.append(text[copied_already:])
    return "".join(output)


# --- Punycode (RFC 3492): base 36, tmin 1, tmax 26, skew 38, damp 700, initial bias 72, initial n 0x80.

cdef inline unsigned long long _adapt(unsigned long long delta, unsigned long long points, bint first) noexcept nogil:
    """RFC 3492 §6.1, bias adaptation."""
    cdef unsigned long long k = 0
    delta = delta // 700 if first else delta // 2
    delta += delta // points
    while delta > 455:  # ((base - tmin) * tmax) // 2
        delta //= 35
        k += 36
    return k + 36 * delta // (delta + 38)


cdef inline char _digit(unsigned long long d) noexcept nogil:
    """The basic code point of digit ``d``: ``a``-``z`` for 0-25, ``0``-``9`` for 26-35 (lower case)."""
    return <char> (0x61 + d if d < 26 else 0x16 + d)


cdef inline Py_ssize_t _integer(unsigned long long q, unsigned long long bias, char* out) noexcept nogil:
    """RFC 3492 §3.3: ``q`` as a generalized variable-length integer, written at ``out`` (only
    counted where ``out`` is NULL); its length.

    Each digit but the last divides what is left by ``36 - t >= 10``: at most 21 digits.
    """
    cdef Py_ssize_t j = 0
    cdef unsigned long long k = 36
    cdef unsigned long long t
    while True:
        t = 1 if k <= bias else (26 if k >= bias + 26 else k - bias)
        if q < t:
            break
        if out != NULL:
            out[j] = _digit(t + (q - t) % (36 - t))
        j += 1
        q = (q - t) // (36 - t)
        k += 36
    if out != NULL:
        out[j] = _digit(q)
    return j + 1


cdef long long _deltas(
    int kind, void* data, Py_ssize_t n, unsigned long long basic, char* out, long long length, long long limit, bint stops
) noexcept nogil:
    """RFC 3492 §6.3's main loop over the ``n`` code points of a label with ``basic`` basic ones:
    the deltas' digits written at ``out`` (counted only where ``out`` is NULL) after the
    ``length`` characters before them; the length then.  With ``stops``, the count ends as soon
    as it exceeds ``limit`` (at the end of a delta's digits, as ``labels.punycode_length``'s)."""
    cdef Py_ssize_t i
    cdef unsigned long long h = basic, delta = 0, bias = 72
    cdef unsigned int c, m, cur = 0x80  # code points (Py_UCS4 arithmetic would make str objects)
    while h < <unsigned long long> n:
        m = 0x110000  # the smallest code point not handled yet
        for i in range(n):
            c = PyUnicode_READ(kind, data, i)
            if cur <= c < m:
                m = c
        delta += (m - cur) * (h + 1)
        cur = m
        for i in range(n):
            c = PyUnicode_READ(kind, data, i)
            if c < cur:
                delta += 1
            elif c == cur:
                length += _integer(delta, bias, out + length if out != NULL else NULL)
                if stops and length > limit:
                    return length
                bias = _adapt(delta, h + 1, h == basic)
                delta = 0
                h += 1
        delta += 1
        cur += 1
    return length


cdef enum:
    STACK_A_LABEL = 512  # bytes on the stack: labels of up to 19 code points
    MAX_INTEGER = 24  # bytes for one delta (at most 21 digits)


def a_label(str label not None):
    """``labels.a_label``: ``label`` if ASCII, else ``"xn--"`` and its Punycode (RFC 3492 §6.3).

    The encoder of RFC 3492 §6.3 over the code points, as Python's ``punycode`` codec writes
    it (the basic code points as they are, the digits in lower case), in 64-bit integers: a
    delta is below ``0x110000 * (len(label) + 2)``, which cannot overflow for a label shorter
    than 2**40 code points (longer ones, which fit in no memory, are left to the codec).
    """
    cdef Py_ssize_t n = PyUnicode_GET_LENGTH(label)
    cdef int kind
    cdef void* data
    cdef char stack_buffer[STACK_A_LABEL]
    cdef char* out = stack_buffer
    cdef Py_ssize_t size, pos, i
    cdef unsigned long long basic
    cdef unsigned int c
    if PyUnicode_IS_ASCII(label):
        return label
    if n >= (<Py_ssize_t> 1) << 40:
        return "xn--" + label.encode("punycode").decode("ascii")
    kind = PyUnicode_KIND(label)
    data = PyUnicode_DATA(label)
    size = 5 + n * MAX_INTEGER
    if size > STACK_A_LABEL:
        out = <char*> PyMem_Malloc(size)
        if out == NULL:
            raise MemoryError()
    try:
        out[0] = 0x78  # "xn--"
        out[1] = 0x6E
        out[2] = 0x2D
        out[3] = 0x2D
        pos = 4
        for i in range(n):  # the basic code points, in order, then "-" when there is one
            c = PyUnicode_READ(kind, data, i)
            if c < 0x80:
                out[pos] = <char> c
                pos += 1
        basic = pos - 4
        if basic:
            out[pos] = 0x2D
            pos += 1
        pos = <Py_ssize_t> _deltas(kind, data, n, basic, out, pos, 0, False)
        return out[:pos].decode("ascii")
    finally:
        if out != stack_buffer:
            PyMem_Free(out)


def punycode_length(str label not None, stop=None):
    """``labels.punycode_length``: ``len(label.encode("punycode"))``, counted (RFC 3492 §6.3).

    The loop of :func:`a_label` (``_deltas``), counting the digits instead of writing them; with
    ``stop``, the count ends as soon as it exceeds ``stop``, at the same digit as the pure function's.
    """
    cdef Py_ssize_t n = PyUnicode_GET_LENGTH(label)
    cdef int kind = PyUnicode_KIND(label)
    cdef void* data = PyUnicode_DATA(label)
    cdef Py_ssize_t i
    cdef unsigned long long basic = 0
    cdef long long limit = 0
    cdef bint stops = stop is not None
    if n >= (<Py_ssize_t> 1) << 40:
        raise OverflowError("the label is too long to count in 64 bits")
    if stops:
        if stop >= (<long long> 1) << 62:
            stops = False  # no count reaches it
        else:
            limit = -1 if stop < 0 else stop  # every count of a digit is above a negative stop
    for i in range(n):
        if PyUnicode_READ(kind, data, i) < 0x80:
            basic += 1
    return _deltas(kind, data, n, basic, NULL, basic + 1 if basic else 0, limit, stops)  # (the basic ones and "-")
