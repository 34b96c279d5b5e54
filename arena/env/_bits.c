/* The flags of an observation: bits laid at offsets, spread one flag a byte. The twin in C of
   _bits.py, which is the reference and says what compose() does; setup.py builds this one
   where the install compiles the engine. Each piece is spread a byte at a time through a
   table, with no integer wider than a machine word made on the way, into a numpy array made
   here (the pure twin ORs the pieces into one integer and has numpy unpack it; numpy's calls
   from Python to make the array cost more than the rest). */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>

/* SPREAD[b][j]: bit j of the byte b; WORD[b], the same 8 bytes as one machine word. */
static unsigned char SPREAD[256][8];
static uint64_t WORD[256];

/* OR the bits of the bytes packed[0 .. count) into flag[0 ..), flag holding room for
   `room` flags; the bits past room are zero (checked by the caller). */
static void
spread(char *flag, Py_ssize_t room, const unsigned char *packed, Py_ssize_t count)
{
    for (Py_ssize_t k = 0; k < count; k++) {
        unsigned char byte = packed[k];
        if (!byte) {
            continue;
        }
        Py_ssize_t at = 8 * k;
        if (room - at >= 8) {
            uint64_t word;
            memcpy(&word, flag + at, 8);
            word |= WORD[byte];
            memcpy(flag + at, &word, 8);
        } else {
            for (Py_ssize_t j = 0; j < room - at; j++) {
                flag[at + j] |= (char)SPREAD[byte][j];
            }
        }
    }
}

static int
bit_length(unsigned long long value)
{
#if defined(__GNUC__) || defined(__clang__)
    return value ? 64 - __builtin_clzll(value) : 0;
#else
    int length = 0;
    while (value) {
        length++;
        value >>= 1;
    }
    return length;
#endif
}

/* Lay one piece at offset: 0 on success, -1 with an exception set. */
static int
lay(char *flag, Py_ssize_t n, Py_ssize_t offset, PyObject *piece)
{
    int overflow = 0;
    long long small = PyLong_AsLongLongAndOverflow(piece, &overflow);
    if (small == -1 && !overflow && PyErr_Occurred()) {
        return -1;
    }
    if (overflow < 0 || (!overflow && small < 0)) {
        PyErr_Format(PyExc_ValueError,
                     "a piece and its offset are not negative, not %R at %zd", piece, offset);
        return -1;
    }
    Py_ssize_t room = n - offset;
    if (!overflow) {
        if (!small) {
            return 0;
        }
        int length = bit_length((unsigned long long)small);
        if (length > room) {
            goto past;
        }
        unsigned char packed[8];
        int used = (length + 7) / 8;
        for (int k = 0; k < used; k++) {
            packed[k] = (unsigned char)((unsigned long long)small >> (8 * k));
        }
        spread(flag + offset, room, packed, used);
        return 0;
    }
    /* Wider than a machine word: its bytes. */
    int64_t bits = (int64_t)_PyLong_NumBits(piece);
    if (bits < 0) {
        return -1;
    }
    if (bits > room) {
        goto past;
    }
    Py_ssize_t count = (Py_ssize_t)((bits + 7) / 8);
    unsigned char stack[256];
    unsigned char *packed = count <= (Py_ssize_t)sizeof(stack) ? stack
                                                                 : PyMem_Malloc((size_t)count);
    if (packed == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    int failed;
#if PY_VERSION_HEX >= 0x030D0000
    Py_ssize_t need = PyLong_AsNativeBytes(
        piece, packed, count,
        Py_ASNATIVEBYTES_LITTLE_ENDIAN | Py_ASNATIVEBYTES_UNSIGNED_BUFFER);
    failed = need < 0 ? -1 : need > count;
#else
    failed = _PyLong_AsByteArray((PyLongObject *)piece, packed, (size_t)count, 1, 0);
    if (failed && PyErr_ExceptionMatches(PyExc_OverflowError)) {
        PyErr_Clear();
        failed = 1;
    }
#endif
    if (!failed) {
        spread(flag + offset, room, packed, count);
    }
    if (packed != stack) {
        PyMem_Free(packed);
    }
    if (failed > 0) {
        goto past;
    }
    return failed;
past:
    PyErr_Format(PyExc_ValueError, "a piece at %zd has a bit past flag %zd", offset, n);
    return -1;
}

static PyObject *
compose(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 3) {
        PyErr_Format(PyExc_TypeError, "compose() takes 3 arguments (%zd given)", nargs);
        return NULL;
    }
    Py_ssize_t n = PyLong_AsSsize_t(args[0]);
    if (n == -1 && PyErr_Occurred()) {
        return NULL;
    }
    if (n < 0) {
        PyErr_Format(PyExc_ValueError, "a count of flags is not negative, not %zd", n);
        return NULL;
    }
    PyObject *offsets = PySequence_Fast(args[1], "compose(): the offsets are not a sequence");
    if (offsets == NULL) {
        return NULL;
    }
    /* One int for pieces: laid at every offset. */
    PyObject *same = PyLong_Check(args[2]) ? args[2] : NULL;
    PyObject *pieces = same ? Py_NewRef(offsets)
                            : PySequence_Fast(args[2], "compose(): the pieces are not a sequence");
    if (pieces == NULL) {
        Py_DECREF(offsets);
        return NULL;
    }
    PyObject *out = NULL;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(offsets);
    if (!same && PySequence_Fast_GET_SIZE(pieces) != count) {
        PyErr_Format(PyExc_ValueError, "%zd offsets for %zd pieces", count,
                     PySequence_Fast_GET_SIZE(pieces));
        goto done;
    }
    npy_intp dims[1] = {n};
    out = PyArray_ZEROS(1, dims, NPY_INT8, 0);
    if (out == NULL) {
        goto done;
    }
    char *flag = PyArray_BYTES((PyArrayObject *)out);
    PyObject **at = PySequence_Fast_ITEMS(offsets);
    PyObject **piece = PySequence_Fast_ITEMS(pieces);
    for (Py_ssize_t k = 0; k < count; k++) {
        PyObject *laid = same ? same : piece[k];
        if (!PyLong_Check(at[k]) || !PyLong_Check(laid)) {
            PyErr_SetString(PyExc_TypeError, "compose(): offsets and pieces are ints");
            goto fail;
        }
        Py_ssize_t offset = PyLong_AsSsize_t(at[k]);
        if (offset == -1 && PyErr_Occurred()) {
            goto fail;
        }
        if (offset < 0) {
            PyErr_Format(PyExc_ValueError,
                         "a piece and its offset are not negative, not %R at %zd",
                         laid, offset);
            goto fail;
        }
        if (lay(flag, n, offset, laid) < 0) {
            goto fail;
        }
    }
    goto done;
fail:
    Py_CLEAR(out);
done:
    Py_DECREF(offsets);
    Py_DECREF(pieces);
    return out;
}

static PyMethodDef methods[] = {
    {"compose", (PyCFunction)(void (*)(void))compose, METH_FASTCALL,
     "compose(n, offsets, pieces): n flags, a byte each (0 or 1), in a new int8 array: flag i "
     "is set where bit i - offsets[k] of pieces[k] is (pieces may be one int, laid at every "
     "offset)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "arena.env._bits",
    "The flags of an observation: bits laid at offsets (the twin in C of _bits.py).",
    -1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC
PyInit__bits(void)
{
    import_array();
    for (int b = 0; b < 256; b++) {
        for (int j = 0; j < 8; j++) {
            SPREAD[b][j] = (unsigned char)((b >> j) & 1);
        }
        memcpy(&WORD[b], SPREAD[b], 8);
    }
    return PyModule_Create(&module);
}
