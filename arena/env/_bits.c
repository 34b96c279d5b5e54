/* The flags of an observation: bit i of an integer as byte i. The twin in C of _bits.py,
   which is the reference and says what flags() does; setup.py builds this one where the
   install compiles the engine. It spreads a byte at a time through a table, where numpy's
   unpackbits behind _bits.py spends most of an observation's last step on its calls. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

/* SPREAD[b][j]: bit j of the byte b. */
static unsigned char SPREAD[256][8];

static PyObject *
flags(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 2) {
        PyErr_Format(PyExc_TypeError, "flags() takes 2 arguments (%zd given)", nargs);
        return NULL;
    }
    PyObject *bits = args[0];
    if (!PyLong_Check(bits) || !PyLong_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "flags(bits, n) takes two ints");
        return NULL;
    }
    Py_ssize_t n = PyLong_AsSsize_t(args[1]);
    if (n == -1 && PyErr_Occurred()) {
        return NULL;
    }
    if (n < 0) {
        PyErr_Format(PyExc_ValueError, "a count of flags is not negative, not %zd", n);
        return NULL;
    }
    Py_ssize_t nbytes = (n + 7) / 8;
    unsigned char small[512];
    unsigned char *packed = small;
    if (nbytes > (Py_ssize_t)sizeof(small)) {
        packed = PyMem_Malloc(nbytes);
        if (packed == NULL) {
            return PyErr_NoMemory();
        }
    }
    PyObject *out = NULL;
#if PY_VERSION_HEX >= 0x030D0000
    Py_ssize_t need = PyLong_AsNativeBytes(
        bits, packed, nbytes,
        Py_ASNATIVEBYTES_LITTLE_ENDIAN | Py_ASNATIVEBYTES_UNSIGNED_BUFFER
            | Py_ASNATIVEBYTES_REJECT_NEGATIVE);
    if (need < 0) {
        if (PyErr_ExceptionMatches(PyExc_ValueError)) {  /* negative: as int.to_bytes says */
            PyErr_SetString(PyExc_OverflowError, "can't convert negative int to unsigned");
        }
        goto done;
    }
    if (need > nbytes) {
        PyErr_SetString(PyExc_OverflowError, "int too big to convert");
        goto done;
    }
#else
    if (_PyLong_AsByteArray((PyLongObject *)bits, packed, (size_t)nbytes, 1, 0) < 0) {
        goto done;
    }
#endif
    out = PyByteArray_FromStringAndSize(NULL, n);
    if (out == NULL) {
        goto done;
    }
    char *flag = PyByteArray_AS_STRING(out);
    Py_ssize_t whole = n / 8;
    for (Py_ssize_t i = 0; i < whole; i++) {
        memcpy(flag + 8 * i, SPREAD[packed[i]], 8);
    }
    if (n % 8) {
        memcpy(flag + 8 * whole, SPREAD[packed[whole]], (size_t)(n % 8));
    }
done:
    if (packed != small) {
        PyMem_Free(packed);
    }
    return out;
}

static PyMethodDef methods[] = {
    {"flags", (PyCFunction)(void (*)(void))flags, METH_FASTCALL,
     "flags(bits, n): the n low bits of bits, least significant first, a byte each (0 or 1), "
     "in a new bytearray."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "arena.env._bits",
    "The flags of an observation: bit i of an integer as byte i (the twin in C of _bits.py).",
    -1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC
PyInit__bits(void)
{
    for (int b = 0; b < 256; b++) {
        for (int j = 0; j < 8; j++) {
            SPREAD[b][j] = (unsigned char)((b >> j) & 1);
        }
    }
    return PyModule_Create(&module);
}
