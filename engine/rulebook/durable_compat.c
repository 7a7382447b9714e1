/*
 * PyEval_CallObject for durable-rules 2.0.28 on Python 3.13 and later.
 *
 * durable-rules' C engine (durable_rules_engine) calls PyEval_CallObject, which Python 3.13 removed from
 * its C API. The engine still compiles against 3.13's headers (the call becomes an implicit declaration)
 * but cannot be loaded: "undefined symbol: PyEval_CallObject". This module defines that symbol as the
 * function Python 3.12 and earlier had: PyObject_CallObject, which calls `callable` with the tuple `args`
 * (none if NULL) and refuses anything but a tuple.
 *
 * It is built only on 3.13+ (setup.py) and loaded with RTLD_GLOBAL before durable_rules_engine
 * (engine/rulebook/durable.py), so the dynamic loader resolves the engine's reference to it.
 *
 * Compiled without a declaration, the engine reads the returned pointer as a C int: it calls
 * PyEval_CallObject only from the callbacks of durable-rules' Python host (stores, queues), which
 * gpu-advisor never registers (tests/test_engine.py checks that), so that truncated value is never used.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#if PY_VERSION_HEX >= 0x030D0000
Py_EXPORTED_SYMBOL PyObject *PyEval_CallObject(PyObject *callable, PyObject *args);

Py_EXPORTED_SYMBOL PyObject *PyEval_CallObject(PyObject *callable, PyObject *args)
{
    return PyObject_CallObject(callable, args);
}
#endif

static PyObject *call_object(PyObject *self, PyObject *args)
{
    PyObject *callable;
    PyObject *arguments = NULL;
    (void)self;
    if (!PyArg_ParseTuple(args, "O|O:call_object", &callable, &arguments)) {
        return NULL;
    }
#if PY_VERSION_HEX >= 0x030D0000
    return PyEval_CallObject(callable, arguments);
#else
    return PyObject_CallObject(callable, arguments);
#endif
}

static PyMethodDef methods[] = {
    {"call_object", call_object, METH_VARARGS,
     "call_object(callable, args=None): the exported PyEval_CallObject, for tests."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    "_durable_compat",
    "PyEval_CallObject (removed in Python 3.13) for durable-rules' C engine.",
    -1,
    methods,
    NULL,
    NULL,
    NULL,
    NULL,
};

PyMODINIT_FUNC PyInit__durable_compat(void)
{
    return PyModule_Create(&module);
}
