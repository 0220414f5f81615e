/*
 * kroeg.parsers._linescan: a JSON Lines event line read without building a dict.
 *
 * `event_row(line)` reads one line of the shape FORMAT.md's JSON Lines write (and
 * `jsonl.dumps` writes): an object with exactly the keys game_id, hand, seq, kind, seat,
 * card, amount and target, in that order, each value a string or an integer (or null
 * where the column allows one). It returns the eight values as a tuple, exactly as
 * `json.loads(line)`'s values in that order, or None for any other line: another
 * shape, another key order, a float, an escape in a string, a character beyond ASCII,
 * an integer of more than 18 digits. None means "ask json.loads": `parsers/jsonl.py`
 * reads such a line the way it always has, and says what is wrong with it.
 *
 * So the answer never differs from json's; only fewer objects are made.
 * tests/parsers/test_linescan.py holds the two equal on hostile and random lines. Built by
 * setup.py with the machine's compiler (plain C99 and the CPython C API); where it is not
 * built, every line goes to json.loads.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#define FIELDS 8
#define MAX_DIGITS 18

static const char *const KEYS[FIELDS] = {
    "game_id", "hand", "seq", "kind", "seat", "card", "amount", "target"};
/* What each value may be: a string, an integer, or either of them or null. */
enum { TEXT = 1, NUMBER = 2, NULLABLE = 4 };
static const int SHAPE[FIELDS] = {
    TEXT, NUMBER, NUMBER, TEXT, NUMBER | NULLABLE, TEXT | NULLABLE,
    NUMBER | NULLABLE, NUMBER | NULLABLE};

/* The last game id read: the lines of a game repeat it, so they share one string. */
static PyObject *last_id = NULL;

static Py_ssize_t skip_space(const char *s, Py_ssize_t i, Py_ssize_t n)
{
    /* JSON's whitespace */
    while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r'))
        i++;
    return i;
}

/* A string at s[i] (its opening quote): its end (past the closing quote), or -1 when it
 * is not one of printable ASCII without escapes. */
static Py_ssize_t string_end(const char *s, Py_ssize_t i, Py_ssize_t n)
{
    if (i >= n || s[i] != '"')
        return -1;
    for (i++; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"')
            return i + 1;
        if (c == '\\' || c < 0x20 || c > 0x7e)
            return -1;
    }
    return -1;
}

/* One value at s[*at] of the shape `shape`: a new reference (None for null), with *at
 * moved past it; NULL without an exception where the line is not of the shape, NULL with
 * one where memory ran out. */
static PyObject *value(const char *s, Py_ssize_t *at, Py_ssize_t n, int shape, int field)
{
    Py_ssize_t i = *at;
    if ((shape & NULLABLE) && n - i >= 4 && memcmp(s + i, "null", 4) == 0) {
        *at = i + 4;
        Py_RETURN_NONE;
    }
    if (shape & TEXT) {
        Py_ssize_t end = string_end(s, i, n);
        if (end < 0)
            return NULL;
        *at = end;
        Py_ssize_t size = end - i - 2;
        if (field == 0 && last_id != NULL && PyUnicode_GET_LENGTH(last_id) == size &&
            memcmp(PyUnicode_DATA(last_id), s + i + 1, (size_t)size) == 0) {
            Py_INCREF(last_id);
            return last_id;
        }
        PyObject *text = PyUnicode_New(size, 127);
        if (text == NULL)
            return NULL;
        memcpy(PyUnicode_DATA(text), s + i + 1, (size_t)size);
        if (field == 0) {
            Py_XSETREF(last_id, Py_NewRef(text));
        }
        return text;
    }
    /* An integer as JSON writes one: -?(0|[1-9][0-9]*), and no fraction or exponent
     * after it (the caller asks for a separator next). */
    int negative = i < n && s[i] == '-';
    if (negative)
        i++;
    Py_ssize_t first = i;
    long long number = 0;
    while (i < n && s[i] >= '0' && s[i] <= '9') {
        if (i - first >= MAX_DIGITS)
            return NULL;
        number = number * 10 + (s[i] - '0');
        i++;
    }
    if (i == first || (s[first] == '0' && i - first > 1))
        return NULL;
    *at = i;
    return PyLong_FromLongLong(negative ? -number : number);
}

static PyObject *event_row(PyObject *self, PyObject *line)
{
    (void)self;
    if (!PyUnicode_Check(line)) {
        PyErr_SetString(PyExc_TypeError, "event_row takes a str");
        return NULL;
    }
    if (!PyUnicode_IS_ASCII(line))
        Py_RETURN_NONE;
    const char *s = (const char *)PyUnicode_DATA(line);
    Py_ssize_t n = PyUnicode_GET_LENGTH(line);
    Py_ssize_t i = skip_space(s, 0, n);
    if (i >= n || s[i] != '{')
        Py_RETURN_NONE;
    i++;
    PyObject *row = PyTuple_New(FIELDS);
    if (row == NULL)
        return NULL;
    for (int field = 0; field < FIELDS; field++) {
        size_t size = strlen(KEYS[field]);
        i = skip_space(s, i, n);
        if (field > 0) {
            if (i >= n || s[i] != ',')
                goto other;
            i = skip_space(s, i + 1, n);
        }
        if (n - i < (Py_ssize_t)size + 2 || s[i] != '"' ||
            memcmp(s + i + 1, KEYS[field], size) != 0 || s[i + 1 + size] != '"')
            goto other;
        i = skip_space(s, i + 2 + (Py_ssize_t)size, n);
        if (i >= n || s[i] != ':')
            goto other;
        i = skip_space(s, i + 1, n);
        PyObject *item = value(s, &i, n, SHAPE[field], field);
        if (item == NULL) {
            if (PyErr_Occurred()) {
                Py_DECREF(row);
                return NULL;
            }
            goto other;
        }
        PyTuple_SET_ITEM(row, field, item);
    }
    i = skip_space(s, i, n);
    if (i >= n || s[i] != '}')
        goto other;
    if (skip_space(s, i + 1, n) != n)
        goto other;
    return row;
other:
    Py_DECREF(row); /* the items set so far go with it; the others are NULL */
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"event_row", event_row, METH_O,
     "event_row(line) -> tuple | None: the eight values of a JSON Lines event line of "
     "the written shape, as json.loads gives them; None for any other line."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_linescan",
    "A JSON Lines event line read without building a dict (see the source's comment).",
    -1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__linescan(void)
{
    return PyModule_Create(&module);
}
