/* Compiled kernels of the observation encoders (bidbluff.envs.core._speedups).
 *
 * Each function does what a few lines of numpy at the end of a game's pure-Python encoder do, in one call:
 * numpy's per-call cost, not the few dozen values an observation sets, is what those lines spend.  The Python
 * code stays the reference: envs/core/speedups.py picks these kernels only when this module was built and
 * BIDBLUFF_PURE_PYTHON is not set, and tests/test_speedups.py checks that both paths give the same bytes on
 * random states of every env and option table.  ``bounded`` draws the betting env's dice as numpy's
 * Generator.integers does, from the same bit-generator outputs (the deal's own cost is numpy's argument handling).
 *
 * Semantics kept from the numpy reference, value for value:
 * - a value is converted to double (Python's float of it), then rounded to float32, as numpy's cast of a list
 *   of Python numbers is;
 * - a count is summed in float32 (exact below 2**24, as numpy's int64 bincount cast to float32);
 * - a scale is applied by one float32 division, and clipping is min(x, 1) with NaN kept (np.minimum);
 * - a position is an integer (anything with __index__); a negative one counts from the end as numpy's
 *   indexing does, one outside the vector raises IndexError.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

/* ---- helpers ------------------------------------------------------------------------------------------- */

typedef struct {
    Py_buffer view;
    float *data;
    Py_ssize_t size;
} Floats;

static int floats_get(PyObject *obj, Floats *f, int writable) {
    int flags = PyBUF_FORMAT | PyBUF_C_CONTIGUOUS | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(obj, &f->view, flags) < 0) {
        return -1;
    }
    const char *fmt = f->view.format;
    if (fmt && (fmt[0] == '<' || fmt[0] == '=' || fmt[0] == '@')) {
        fmt++;
    }
    if (f->view.ndim != 1 || f->view.itemsize != 4 || !fmt || strcmp(fmt, "f") != 0) {
        PyBuffer_Release(&f->view);
        PyErr_SetString(PyExc_TypeError, "expected a one-dimensional, contiguous float32 array");
        return -1;
    }
    f->data = (float *)f->view.buf;
    f->size = f->view.shape[0];
    return 0;
}

/* An integer position in 0..size-1 (a negative one counts from the end); -1 with IndexError set otherwise. */
/* A layout call's fixed-length tuple of ints (or of scales) into ``out``: ``what`` names it in the errors
 * ("ints must be a sequence", "13 ints expected").  0, or -1 with the error set. */
static int read_fixed(PyObject *seq, Py_ssize_t n, const char *what, long *ints, double *doubles) {
    char message[64];
    PyOS_snprintf(message, sizeof message, "%s must be a sequence", what);
    PyObject *fast = PySequence_Fast(seq, message);
    if (!fast) {
        return -1;
    }
    if (PySequence_Fast_GET_SIZE(fast) != n) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%zd %s expected", n, what);
        return -1;
    }
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *item = PySequence_Fast_GET_ITEM(fast, k);
        if (ints) {
            ints[k] = PyLong_AsLong(item);
        } else {
            doubles[k] = PyFloat_AsDouble(item);
        }
    }
    Py_DECREF(fast);
    return PyErr_Occurred() ? -1 : 0;
}

static int read_longs(PyObject *seq, long *out, Py_ssize_t n, const char *what) {
    return read_fixed(seq, n, what, out, NULL);
}

static int read_doubles(PyObject *seq, double *out, Py_ssize_t n, const char *what) {
    return read_fixed(seq, n, what, NULL, out);
}

static inline Py_ssize_t position(PyObject *item, Py_ssize_t size) {
    Py_ssize_t p;
    if (PyLong_CheckExact(item)) {
        p = PyLong_AsSsize_t(item);
    } else {
        p = PyNumber_AsSsize_t(item, PyExc_IndexError);
    }
    if (p == -1 && PyErr_Occurred()) {
        return -1;
    }
    Py_ssize_t wrapped = p < 0 ? p + size : p;
    if (wrapped < 0 || wrapped >= size) {
        PyErr_Format(PyExc_IndexError, "index %zd is out of bounds for an observation of %zd values", p, size);
        return -1;
    }
    return wrapped;
}

static inline int number(PyObject *item, double *value) {
    if (PyFloat_CheckExact(item)) {
        *value = PyFloat_AS_DOUBLE(item);
        return 0;
    }
    *value = PyFloat_AsDouble(item);
    return (*value == -1.0 && PyErr_Occurred()) ? -1 : 0;
}

static inline long small_int(PyObject *item) {
    long v = PyLong_AsLong(item);
    return v;  /* -1 with an error set is checked by the caller through PyErr_Occurred */
}

/* Write ``values[i]`` at ``at[i]`` (both sequences, the same length). */
static int write_values(float *out, Py_ssize_t size, PyObject *at, PyObject *values) {
    PyObject *at_fast = PySequence_Fast(at, "positions must be a sequence");
    if (!at_fast) {
        return -1;
    }
    PyObject *values_fast = PySequence_Fast(values, "values must be a sequence");
    if (!values_fast) {
        Py_DECREF(at_fast);
        return -1;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(at_fast);
    int rc = -1;
    if (PySequence_Fast_GET_SIZE(values_fast) != n) {
        PyErr_Format(PyExc_ValueError, "%zd positions but %zd values", n, PySequence_Fast_GET_SIZE(values_fast));
        goto done;
    }
    PyObject **ps = PySequence_Fast_ITEMS(at_fast);
    PyObject **vs = PySequence_Fast_ITEMS(values_fast);
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_ssize_t p = position(ps[i], size);
        double v;
        if (p < 0 || number(vs[i], &v) < 0) {
            goto done;
        }
        out[p] = (float)v;
    }
    rc = 0;
done:
    Py_DECREF(at_fast);
    Py_DECREF(values_fast);
    return rc;
}

/* Set 1 at every position of ``ones``. */
static int write_ones(float *out, Py_ssize_t size, PyObject *ones) {
    PyObject *fast = PySequence_Fast(ones, "positions must be a sequence");
    if (!fast) {
        return -1;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    PyObject **items = PySequence_Fast_ITEMS(fast);
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_ssize_t p = position(items[i], size);
        if (p < 0) {
            Py_DECREF(fast);
            return -1;
        }
        out[p] = 1.0f;
    }
    Py_DECREF(fast);
    return 0;
}

static inline void clip(float *out, Py_ssize_t size) {
    for (Py_ssize_t k = 0; k < size; k++) {
        if (out[k] > 1.0f) {
            out[k] = 1.0f;
        }
    }
}

/* ---- scaled: Layout.encode ------------------------------------------------------------------------------ */

PyDoc_STRVAR(scaled_doc,
"scaled(out, scales, counted, at, values)\n\n"
"``Layout.encode`` into ``out`` (float32 zeros of the layout's size): 1 added at each position of\n"
"``counted``, ``values[i]`` written at ``at[i]``, every value divided by ``scales`` (float32, the same\n"
"size) and clipped at 1.");

static PyObject *scaled(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError, "scaled(out, scales, counted, at, values) takes 5 arguments");
        return NULL;
    }
    Floats out, scales;
    if (floats_get(args[0], &out, 1) < 0) {
        return NULL;
    }
    if (floats_get(args[1], &scales, 0) < 0) {
        PyBuffer_Release(&out.view);
        return NULL;
    }
    PyObject *result = NULL;
    PyObject *counted = NULL;
    Py_ssize_t size = out.size;
    if (scales.size != size) {
        PyErr_SetString(PyExc_ValueError, "out and scales differ in size");
        goto done;
    }
    counted = PySequence_Fast(args[2], "counted must be a sequence");
    if (!counted) {
        goto done;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(counted);
    PyObject **items = PySequence_Fast_ITEMS(counted);
    for (Py_ssize_t i = 0; i < n; i++) {
        /* np.bincount: a negative position is an error, one past the end makes a vector too long to scale */
        Py_ssize_t p = PyNumber_AsSsize_t(items[i], PyExc_OverflowError);
        if (p == -1 && PyErr_Occurred()) {
            goto done;
        }
        if (p < 0 || p >= size) {
            PyErr_Format(PyExc_ValueError, "counted position %zd is outside the observation of %zd values", p, size);
            goto done;
        }
        out.data[p] += 1.0f;
    }
    if (write_values(out.data, size, args[3], args[4]) < 0) {
        goto done;
    }
    float *o = out.data;
    const float *s = scales.data;
    for (Py_ssize_t k = 0; k < size; k++) {
        if (o[k] != 0.0f) {  /* 0 / scale is 0: only the values set need the division */
            float x = o[k] / s[k];
            o[k] = x > 1.0f ? 1.0f : x;
        }
    }
    result = Py_NewRef(Py_None);
done:
    Py_XDECREF(counted);
    PyBuffer_Release(&out.view);
    PyBuffer_Release(&scales.view);
    return result;
}

/* ---- clipped: Libertalia's tail ------------------------------------------------------------------------- */

PyDoc_STRVAR(clipped_doc,
"clipped(out, ones, at, values)\n\n"
"Into ``out`` (float32 zeros): ``values[i]`` at ``at[i]``, the vector clipped at 1, then 1 at every\n"
"position of ``ones``.");

static PyObject *clipped(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "clipped(out, ones, at, values) takes 4 arguments");
        return NULL;
    }
    Floats out;
    if (floats_get(args[0], &out, 1) < 0) {
        return NULL;
    }
    PyObject *result = NULL;
    if (write_values(out.data, out.size, args[2], args[3]) < 0) {
        goto done;
    }
    clip(out.data, out.size);
    if (write_ones(out.data, out.size, args[1]) < 0) {
        goto done;
    }
    result = Py_NewRef(Py_None);
done:
    PyBuffer_Release(&out.view);
    return result;
}

/* ---- piles: Spytails' tail ------------------------------------------------------------------------------ */

PyDoc_STRVAR(piles_doc,
"piles(out, copy, piles, pile_at, hot, value_at, values)\n\n"
"Into ``out`` (float32 zeros): ``copy`` (float32) added at ``pile_at[j] + card`` for every card of\n"
"``piles[j]``, then 1 at every position of ``hot``, then ``values[i]`` at ``value_at[i]``, then the\n"
"vector clipped at 1.");

static PyObject *piles(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 7) {
        PyErr_SetString(PyExc_TypeError, "piles(out, copy, piles, pile_at, hot, value_at, values) takes 7 arguments");
        return NULL;
    }
    Floats out;
    if (floats_get(args[0], &out, 1) < 0) {
        return NULL;
    }
    PyObject *result = NULL, *piles_fast = NULL, *at_fast = NULL;
    double copy_d;
    if (number(args[1], &copy_d) < 0) {
        goto done;
    }
    float copy = (float)copy_d;
    Py_ssize_t size = out.size;
    piles_fast = PySequence_Fast(args[2], "piles must be a sequence");
    if (!piles_fast) {
        goto done;
    }
    at_fast = PySequence_Fast(args[3], "pile_at must be a sequence");
    if (!at_fast) {
        goto done;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(piles_fast);
    if (PySequence_Fast_GET_SIZE(at_fast) != n) {
        PyErr_Format(PyExc_ValueError, "%zd piles but %zd pile positions", n, PySequence_Fast_GET_SIZE(at_fast));
        goto done;
    }
    for (Py_ssize_t j = 0; j < n; j++) {
        Py_ssize_t base = PyNumber_AsSsize_t(PySequence_Fast_GET_ITEM(at_fast, j), PyExc_IndexError);
        if (base == -1 && PyErr_Occurred()) {
            goto done;
        }
        PyObject *pile = PySequence_Fast(PySequence_Fast_GET_ITEM(piles_fast, j), "a pile must be a sequence");
        if (!pile) {
            goto done;
        }
        Py_ssize_t m = PySequence_Fast_GET_SIZE(pile);
        PyObject **cards = PySequence_Fast_ITEMS(pile);
        for (Py_ssize_t i = 0; i < m; i++) {
            long card = small_int(cards[i]);
            if (card == -1 && PyErr_Occurred()) {
                Py_DECREF(pile);
                goto done;
            }
            if (card < 0 || card > 255) {  /* the reference packs the cards into bytes */
                PyErr_SetString(PyExc_ValueError, "byte must be in range(0, 256)");
                Py_DECREF(pile);
                goto done;
            }
            Py_ssize_t p = base + card;
            if (p < 0) {
                p += size;
            }
            if (p < 0 || p >= size) {
                PyErr_Format(PyExc_IndexError, "index %zd is out of bounds for an observation of %zd values",
                             base + card, size);
                Py_DECREF(pile);
                goto done;
            }
            out.data[p] += copy;
        }
        Py_DECREF(pile);
    }
    if (write_ones(out.data, size, args[4]) < 0 || write_values(out.data, size, args[5], args[6]) < 0) {
        goto done;
    }
    clip(out.data, size);
    result = Py_NewRef(Py_None);
done:
    Py_XDECREF(piles_fast);
    Py_XDECREF(at_fast);
    PyBuffer_Release(&out.view);
    return result;
}

/* ---- liars_dice: the betting env's whole observation ---------------------------------------------------- */

#define KINDS 16
static struct {
    int ready;
    long size, crew_kind, crew_at, seat_size, present, bettor, dice, in_play, last_quantity, last_face, history_at;
    long face_slots, max_players;
    double crew_scale, dice_scale, in_play_scale, quantity_scale;
    long special_at[KINDS];      /* own cup: a special die's one-hot (+ face); -1 for none */
    long seat_special_at[KINDS]; /* a seat's "holds it" bit; -1 for none */
} LD;

PyDoc_STRVAR(liars_dice_layout_doc,
"liars_dice_layout(ints, scales, special_at, seat_special_at)\n\n"
"Set the layout ``liars_dice`` writes, once (``envs/liars_dice/codec.py``): ``ints`` = (size, crew_kind,\n"
"crew_at, seat_size, present, bettor, dice, in_play, last_quantity, last_face, history_at, face_slots,\n"
"max_players); ``scales`` = (crew, dice, in_play, quantity); per die kind, where its field starts\n"
"(-1: none).");

static PyObject *liars_dice_layout(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "liars_dice_layout takes 4 arguments");
        return NULL;
    }
    long *ints[] = {&LD.size, &LD.crew_kind, &LD.crew_at, &LD.seat_size, &LD.present, &LD.bettor, &LD.dice,
                    &LD.in_play, &LD.last_quantity, &LD.last_face, &LD.history_at, &LD.face_slots,
                    &LD.max_players};
    double *scales[] = {&LD.crew_scale, &LD.dice_scale, &LD.in_play_scale, &LD.quantity_scale};
    long given_ints[13];
    double given_scales[4];
    if (read_longs(args[0], given_ints, 13, "ints") || read_doubles(args[1], given_scales, 4, "scales")) {
        return NULL;
    }
    for (int i = 0; i < 13; i++) {
        *ints[i] = given_ints[i];
    }
    for (int i = 0; i < 4; i++) {
        *scales[i] = given_scales[i];
    }
    long *tables[] = {LD.special_at, LD.seat_special_at};
    for (int t = 0; t < 2; t++) {
        PyObject *fast = PySequence_Fast(args[2 + t], "per-kind positions must be a sequence");
        if (!fast) {
            return NULL;
        }
        Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
        if (n > KINDS) {
            Py_DECREF(fast);
            PyErr_SetString(PyExc_ValueError, "too many die kinds");
            return NULL;
        }
        for (int k = 0; k < KINDS; k++) {
            tables[t][k] = k < n ? PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, k)) : -1;
        }
        Py_DECREF(fast);
        if (PyErr_Occurred()) {
            return NULL;
        }
    }
    if (LD.face_slots != 6 || LD.crew_kind < 0 || LD.crew_kind >= KINDS || LD.max_players < 1) {
        PyErr_SetString(PyExc_ValueError, "unexpected liars_dice layout");
        return NULL;
    }
    LD.ready = 1;
    Py_RETURN_NONE;
}

typedef struct {
    float *out;
    Py_ssize_t out_size;
    const Py_ssize_t *remap; /* full position -> position in out, or -1; NULL: out is the full vector */
} Target;

static inline int put(Target *t, long p, double v) {
    /* numpy's scalar assignment into the full vector: a negative position counts from the end */
    long full = p < 0 ? p + LD.size : p;
    if (full < 0 || full >= LD.size) {
        PyErr_Format(PyExc_IndexError, "index %ld is out of bounds for axis 0 with size %ld", p, LD.size);
        return -1;
    }
    if (t->remap) {
        Py_ssize_t q = t->remap[full];
        if (q >= t->out_size) {
            PyErr_SetString(PyExc_ValueError, "remap points outside out");
            return -1;
        }
        if (q >= 0) {
            t->out[q] = (float)v;
        }
    } else {
        t->out[full] = (float)v;
    }
    return 0;
}

/* kind and face of a die ``[kind, face]`` */
static inline int die(PyObject *item, long *kind, long *face) {
    if (PyList_CheckExact(item) && PyList_GET_SIZE(item) == 2) {
        *kind = PyLong_AsLong(PyList_GET_ITEM(item, 0));
        *face = PyLong_AsLong(PyList_GET_ITEM(item, 1));
    } else if (PyTuple_CheckExact(item) && PyTuple_GET_SIZE(item) == 2) {
        *kind = PyLong_AsLong(PyTuple_GET_ITEM(item, 0));
        *face = PyLong_AsLong(PyTuple_GET_ITEM(item, 1));
    } else {
        PyErr_SetString(PyExc_ValueError, "a die is [kind, face]");
        return -1;
    }
    return PyErr_Occurred() ? -1 : 0;
}

static inline long kind_at(const long *table, long kind) {
    if (kind < 0 || kind >= KINDS || table[kind] < 0) {
        PyErr_Format(PyExc_KeyError, "%ld", kind);
        return -1;
    }
    return table[kind];
}

static inline long modulo(long a, long n) {
    long r = a % n;
    return r < 0 ? r + n : r;
}

PyDoc_STRVAR(liars_dice_doc,
"liars_dice(out, remap, own, cups, bettors, n, seat, dice_in_play, bids)\n\n"
"(``dice_in_play`` None: counted from ``cups``, as ``BettingRound.dice_in_play`` does)\n"
"``codec.encode``'s observation of the betting round for ``seat`` at a table of ``n``, written into\n"
"``out`` (float32 zeros): the full vector when ``remap`` is None, else the compact one (``remap``: an intp\n"
"array giving each full position's place in ``out``, -1 where it has none).  ``own`` is the seat's cup,\n"
"``cups`` every cup by seat, ``bids`` the bets as [seat, quantity, face].");

static PyObject *liars_dice(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 9) {
        PyErr_SetString(PyExc_TypeError, "liars_dice takes 9 arguments");
        return NULL;
    }
    if (!LD.ready) {
        PyErr_SetString(PyExc_RuntimeError, "liars_dice_layout() was not called");
        return NULL;
    }
    Floats out;
    if (floats_get(args[0], &out, 1) < 0) {
        return NULL;
    }
    Py_buffer remap_view;
    int has_remap = args[1] != Py_None;
    PyObject *result = NULL, *own = NULL, *bids = NULL;
    Target t = {out.data, out.size, NULL};
    if (has_remap) {
        if (PyObject_GetBuffer(args[1], &remap_view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) {
            PyBuffer_Release(&out.view);
            return NULL;
        }
        if (remap_view.itemsize != sizeof(Py_ssize_t) || remap_view.ndim != 1 ||
            remap_view.shape[0] != LD.size) {
            PyErr_SetString(PyExc_TypeError, "remap must be an intp array of the full observation's size");
            goto done;
        }
        t.remap = (const Py_ssize_t *)remap_view.buf;
    } else if (out.size != LD.size) {
        PyErr_SetString(PyExc_ValueError, "out is not of the full observation's size");
        goto done;
    }
    PyObject *cups = args[3], *bettors = args[4];
    if (!PyDict_Check(cups)) {
        PyErr_SetString(PyExc_TypeError, "cups must be a dict");
        goto done;
    }
    long n = PyLong_AsLong(args[5]);
    long seat = PyLong_AsLong(args[6]);
    double in_play = 0.0;
    if (PyErr_Occurred()) {
        goto done;
    }
    if (args[7] == Py_None) { /* BettingRound.dice_in_play: the dice in every cup */
        PyObject *key, *cup;
        Py_ssize_t pos = 0;
        while (PyDict_Next(cups, &pos, &key, &cup)) {
            Py_ssize_t len = PyObject_Length(cup);
            if (len < 0) {
                goto done;
            }
            in_play += (double)len;
        }
    } else if (number(args[7], &in_play) < 0) {
        goto done;
    }
    if (n < 1) {
        PyErr_SetString(PyExc_ValueError, "n must be positive");
        goto done;
    }
    /* the observer's own cup: crew dice counted per face, special dice one-hot by face */
    own = PySequence_Fast(args[2], "a cup must be a sequence");
    if (!own) {
        goto done;
    }
    long crew[6] = {0, 0, 0, 0, 0, 0};
    Py_ssize_t m = PySequence_Fast_GET_SIZE(own);
    for (Py_ssize_t i = 0; i < m; i++) {
        long kind, face;
        if (die(PySequence_Fast_GET_ITEM(own, i), &kind, &face) < 0) {
            goto done;
        }
        if (kind == LD.crew_kind) {
            long slot = face - 1 < 0 ? face - 1 + 6 : face - 1; /* crew[face - 1] of a Python list */
            if (slot < 0 || slot >= 6) {
                PyErr_SetString(PyExc_IndexError, "list index out of range");
                goto done;
            }
            crew[slot]++;
        } else {
            long at = kind_at(LD.special_at, kind);
            if (at < 0 || put(&t, at + face, 1.0) < 0) {
                goto done;
            }
        }
    }
    for (int face = 0; face < 6; face++) {
        if (crew[face] && put(&t, LD.crew_at + face, (double)crew[face] / LD.crew_scale) < 0) {
            goto done;
        }
    }
    /* a block per seat, relative to the observer */
    for (long rel = 0; rel < n; rel++) {
        long s = modulo(seat + rel, n);
        long at = rel * LD.seat_size;
        if (put(&t, at + LD.present, 1.0) < 0) {
            goto done;
        }
        PyObject *key = PyLong_FromLong(s);
        if (!key) {
            goto done;
        }
        int betting = PySequence_Contains(bettors, key);
        PyObject *cup = betting < 0 ? NULL : PyDict_GetItemWithError(cups, key);  /* borrowed */
        Py_DECREF(key);
        if (betting < 0 || (!cup && PyErr_Occurred())) {
            goto done;
        }
        if (betting && put(&t, at + LD.bettor, 1.0) < 0) {
            goto done;
        }
        if (!cup) {
            if (put(&t, at + LD.dice, 0.0 / LD.dice_scale) < 0) {
                goto done;
            }
            continue;
        }
        PyObject *dice = PySequence_Fast(cup, "a cup must be a sequence");
        if (!dice) {
            goto done;
        }
        Py_ssize_t count = PySequence_Fast_GET_SIZE(dice);
        if (put(&t, at + LD.dice, (double)count / LD.dice_scale) < 0) {
            Py_DECREF(dice);
            goto done;
        }
        for (Py_ssize_t i = 0; i < count; i++) {
            long kind, face;
            if (die(PySequence_Fast_GET_ITEM(dice, i), &kind, &face) < 0) {
                Py_DECREF(dice);
                goto done;
            }
            if (kind != LD.crew_kind) {
                long held = kind_at(LD.seat_special_at, kind);
                if (held < 0 || put(&t, at + held, 1.0) < 0) {
                    Py_DECREF(dice);
                    goto done;
                }
            }
        }
        Py_DECREF(dice);
    }
    if (put(&t, LD.in_play, in_play / LD.in_play_scale) < 0) {
        goto done;
    }
    /* the last bet and the whole history, each bet one-hot by the seat that made it */
    bids = PySequence_Fast(args[8], "bids must be a sequence");
    if (!bids) {
        goto done;
    }
    Py_ssize_t b = PySequence_Fast_GET_SIZE(bids);
    for (Py_ssize_t i = 0; i < b; i++) {
        PyObject *bid = PySequence_Fast_GET_ITEM(bids, i);
        PyObject *fields = PySequence_Fast(bid, "a bid must be a sequence");
        if (!fields) {
            goto done;
        }
        if (PySequence_Fast_GET_SIZE(fields) != 3) {
            Py_DECREF(fields);
            PyErr_SetString(PyExc_ValueError, "a bid is [seat, quantity, face]");
            goto done;
        }
        long who = PyLong_AsLong(PySequence_Fast_GET_ITEM(fields, 0));
        long q = PyLong_AsLong(PySequence_Fast_GET_ITEM(fields, 1));
        long f = PyLong_AsLong(PySequence_Fast_GET_ITEM(fields, 2));
        Py_DECREF(fields);
        if (PyErr_Occurred()) {
            goto done;
        }
        if (i == b - 1) {
            if (put(&t, LD.last_quantity, (double)q / LD.quantity_scale) < 0 ||
                put(&t, LD.last_face + f - 1, 1.0) < 0) {
                goto done;
            }
        }
        long p = LD.history_at + ((q - 1) * LD.face_slots + f - 1) * LD.max_players + modulo(who - seat, n);
        if (put(&t, p, 1.0) < 0) {
            goto done;
        }
    }
    result = Py_NewRef(Py_None);
done:
    Py_XDECREF(own);
    Py_XDECREF(bids);
    if (has_remap) {
        PyBuffer_Release(&remap_view);
    }
    PyBuffer_Release(&out.view);
    return result;
}

/* ---- libertalia: the seat blocks and public tables of Libertalia's observation ------------------------- */

static struct {
    int ready;
    long size, seat_size, colour, hand, unseen, discard, den, den_booty, ship, acted, has_chosen, chosen;
    long doubloons, score, booty_days, bag, undealt, tokens;
    double unseen_scale, den_booty_scale, doubloons_scale, score_scale, booty_days_scale, bag_scale;
} LIB;

PyDoc_STRVAR(libertalia_layout_doc,
"libertalia_layout(ints, scales)\n\n"
"Set the layout ``libertalia`` writes, once (``envs/libertalia/codec.py``): ``ints`` = (size, seat_size,\n"
"colour, hand, unseen, discard, den, den_booty, ship, acted, has_chosen, chosen, doubloons, score,\n"
"booty_days, bag, undealt, tokens); ``scales`` = (unseen, den_booty, doubloons, score, booty_days, bag).");

static PyObject *libertalia_layout(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "libertalia_layout takes 2 arguments");
        return NULL;
    }
    long *ints[] = {&LIB.size, &LIB.seat_size, &LIB.colour, &LIB.hand, &LIB.unseen, &LIB.discard, &LIB.den,
                    &LIB.den_booty, &LIB.ship, &LIB.acted, &LIB.has_chosen, &LIB.chosen, &LIB.doubloons,
                    &LIB.score, &LIB.booty_days, &LIB.bag, &LIB.undealt, &LIB.tokens};
    double *scales[] = {&LIB.unseen_scale, &LIB.den_booty_scale, &LIB.doubloons_scale, &LIB.score_scale,
                        &LIB.booty_days_scale, &LIB.bag_scale};
    long given_ints[18];
    double given_scales[6];
    if (read_longs(args[0], given_ints, 18, "ints") || read_doubles(args[1], given_scales, 6, "scales")) {
        return NULL;
    }
    for (int i = 0; i < 18; i++) {
        *ints[i] = given_ints[i];
    }
    for (int i = 0; i < 6; i++) {
        *scales[i] = given_scales[i];
    }
    LIB.ready = 1;
    Py_RETURN_NONE;
}

#define LIB_ONES 8192
#define LIB_SEATS 64
static Py_ssize_t lib_ones[LIB_ONES]; /* the positions set to 1, written last (under the GIL: one call at a time) */

typedef struct {
    float *out;
    Py_ssize_t size, ones;
} Lib;

static inline int lib_one(Lib *w, long p) {
    long q = p < 0 ? p + w->size : p;
    if (q < 0 || q >= w->size) {
        PyErr_Format(PyExc_IndexError, "index %ld is out of bounds for axis 0 with size %zd", p, w->size);
        return -1;
    }
    if (w->ones >= LIB_ONES) {
        PyErr_SetString(PyExc_ValueError, "too many positions set to 1");
        return -1;
    }
    lib_ones[w->ones++] = q;
    return 0;
}

static inline int lib_value(Lib *w, long p, double v) {
    long q = p < 0 ? p + w->size : p;
    if (q < 0 || q >= w->size) {
        PyErr_Format(PyExc_IndexError, "index %ld is out of bounds for axis 0 with size %zd", p, w->size);
        return -1;
    }
    float x = (float)v;
    w->out[q] = x > 1.0f ? 1.0f : x; /* the reference clips the whole vector after the values: the same */
    return 0;
}

/* 1 at ``first - 1 + r`` for every r of the sequence ``ranks``; with ``skip`` (a bit per rank), only the
 * ranks outside it; with ``mark``, the ranks are added to it (ranks 0..63) */
static int lib_ranks(Lib *w, PyObject *ranks, long first, unsigned long long skip, unsigned long long *mark) {
    PyObject *fast = PySequence_Fast(ranks, "expected a sequence of ranks");
    if (!fast) {
        return -1;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    PyObject **items = PySequence_Fast_ITEMS(fast);
    for (Py_ssize_t i = 0; i < n; i++) {
        long r = PyLong_AsLong(items[i]);
        if (r == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        if ((skip || mark) && (r < 0 || r > 63)) {
            Py_DECREF(fast);
            PyErr_Format(PyExc_ValueError, "rank %ld outside 0..63", r);
            return -1;
        }
        if (mark) {
            *mark |= 1ULL << r;
        }
        if (skip && (skip >> r & 1ULL)) {
            continue;
        }
        if (first >= 0 && lib_one(w, first - 1 + r) < 0) {
            Py_DECREF(fast);
            return -1;
        }
    }
    Py_DECREF(fast);
    return 0;
}

/* values count / scale at first + i for the non-zero counts of the sequence ``counts`` */
static int lib_counts(Lib *w, PyObject *counts, long first, double scale) {
    PyObject *fast = PySequence_Fast(counts, "expected a sequence of counts");
    if (!fast) {
        return -1;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    PyObject **items = PySequence_Fast_ITEMS(fast);
    for (Py_ssize_t i = 0; i < n; i++) {
        int nonzero = PyObject_IsTrue(items[i]);
        double v;
        if (nonzero < 0) {
            Py_DECREF(fast);
            return -1;
        }
        if (!nonzero) {
            continue;
        }
        if (number(items[i], &v) < 0 || lib_value(w, first + (long)i, v / scale) < 0) {
            Py_DECREF(fast);
            return -1;
        }
    }
    Py_DECREF(fast);
    return 0;
}

static PyObject *item_of(PyObject *seq, long i) { /* a new reference to seq[i] */
    return PySequence_GetItem(seq, i);
}

PyDoc_STRVAR(libertalia_doc,
"libertalia(out, state, seat, acted_upto, ones, at, values)\n\n"
"``codec._public``'s part of ``seat``'s observation of a Libertalia ``state`` (the seat blocks, the\n"
"days' booty, the bag, the undealt ranks) with the rest as ``codec._decision`` gathered it (``ones``,\n"
"``at``/``values``), written into ``out`` (float32 zeros): the values clipped at 1, then the 1s.  The\n"
"ship's first ``acted_upto`` cards have acted.");

static PyObject *libertalia(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 7) {
        PyErr_SetString(PyExc_TypeError, "libertalia takes 7 arguments");
        return NULL;
    }
    if (!LIB.ready) {
        PyErr_SetString(PyExc_RuntimeError, "libertalia_layout() was not called");
        return NULL;
    }
    Floats out;
    if (floats_get(args[0], &out, 1) < 0) {
        return NULL;
    }
    PyObject *state = args[1];
    PyObject *result = NULL;
    PyObject *hands = NULL, *discards = NULL, *dens = NULL, *chosen = NULL, *hidden = NULL, *den_booty = NULL;
    PyObject *doubloons = NULL, *score = NULL, *ship = NULL, *tmp = NULL;
    Lib w = {out.data, out.size, 0};
    if (out.size != LIB.size) {
        PyErr_SetString(PyExc_ValueError, "out is not of the observation's size");
        goto done;
    }
    long seat = PyLong_AsLong(args[2]);
    long acted_upto = PyLong_AsLong(args[3]);
    if (PyErr_Occurred()) {
        goto done;
    }
    tmp = PyObject_GetAttrString(state, "num_players");
    if (!tmp) {
        goto done;
    }
    long n = PyLong_AsLong(tmp);
    Py_CLEAR(tmp);
    if (PyErr_Occurred()) {
        goto done;
    }
    if (n < 1 || n > LIB_SEATS) {
        PyErr_SetString(PyExc_ValueError, "num_players out of range");
        goto done;
    }
    if (!(hands = PyObject_GetAttrString(state, "hands")) || !(discards = PyObject_GetAttrString(state, "discards")) ||
        !(dens = PyObject_GetAttrString(state, "dens")) || !(chosen = PyObject_GetAttrString(state, "chosen")) ||
        !(hidden = PyObject_GetAttrString(state, "hidden")) ||
        !(den_booty = PyObject_GetAttrString(state, "den_booty")) ||
        !(doubloons = PyObject_GetAttrString(state, "doubloons")) ||
        !(score = PyObject_GetAttrString(state, "score")) || !(ship = PyObject_GetAttrString(state, "ship"))) {
        goto done;
    }
    /* ship_of = {owner: rank for owner, rank in ship}; acted = owners of ship[:acted_upto] */
    long ship_rank[LIB_SEATS];
    char on_ship[LIB_SEATS], acted[LIB_SEATS];
    memset(on_ship, 0, sizeof on_ship);
    memset(acted, 0, sizeof acted);
    {
        PyObject *fast = PySequence_Fast(ship, "ship must be a sequence");
        if (!fast) {
            goto done;
        }
        Py_ssize_t m = PySequence_Fast_GET_SIZE(fast);
        for (Py_ssize_t i = 0; i < m; i++) {
            long owner, rank;
            if (die(PySequence_Fast_GET_ITEM(fast, i), &owner, &rank) < 0) {
                Py_DECREF(fast);
                goto done;
            }
            if (owner < 0 || owner >= LIB_SEATS) {
                Py_DECREF(fast);
                PyErr_SetString(PyExc_ValueError, "ship owner out of range");
                goto done;
            }
            on_ship[owner] = 1;
            ship_rank[owner] = rank;
            if (i < acted_upto) {
                acted[owner] = 1;
            }
        }
        Py_DECREF(fast);
    }
    for (long rel = 0; rel < n; rel++) {
        long s = modulo(seat + rel, n);
        long base = rel * LIB.seat_size;
        if (lib_one(&w, base) < 0 || lib_one(&w, base + LIB.colour + s) < 0) {
            goto done;
        }
        PyObject *hand = NULL, *discard = NULL, *groups = NULL, *chose = NULL;
        int ok = 0;
        if (!(hand = item_of(hands, s)) || !(discard = item_of(discards, s)) || !(groups = item_of(hidden, s)) ||
            !(chose = item_of(chosen, s))) {
            goto seat_done;
        }
        long chosen_rank = PyLong_AsLong(chose);
        int has_hidden = PyObject_IsTrue(groups);
        if ((chosen_rank == -1 && PyErr_Occurred()) || has_hidden < 0) {
            goto seat_done;
        }
        unsigned long long grouped = 0;
        if (s == seat) {
            if (chosen_rank && lib_one(&w, base + LIB.chosen + chosen_rank - 1) < 0) {
                goto seat_done;
            }
        } else if (has_hidden) {
            /* possible hand: the hidden groups' members and the hand; known discard: the rest */
            PyObject *fast = PySequence_Fast(groups, "hidden must hold sequences of groups");
            if (!fast) {
                goto seat_done;
            }
            Py_ssize_t m = PySequence_Fast_GET_SIZE(fast);
            for (Py_ssize_t i = 0; i < m; i++) {
                PyObject *members = PyObject_GetAttrString(PySequence_Fast_GET_ITEM(fast, i), "members");
                int rc = members ? lib_ranks(&w, members, base + LIB.hand, 0, &grouped) : -1;
                Py_XDECREF(members);
                if (rc < 0) {
                    Py_DECREF(fast);
                    goto seat_done;
                }
            }
            Py_DECREF(fast);
        }
        if (has_hidden) {
            PyObject *count = PyObject_CallMethod(state, "hidden_count", "l", s);
            double v;
            int rc = count ? number(count, &v) : -1;
            Py_XDECREF(count);
            if (rc < 0 || lib_value(&w, base + LIB.unseen, v / LIB.unseen_scale) < 0) {
                goto seat_done;
            }
        }
        if (lib_ranks(&w, hand, base + LIB.hand, 0, NULL) < 0 ||
            lib_ranks(&w, discard, base + LIB.discard, grouped, NULL) < 0) {
            goto seat_done;
        }
        ok = 1;
    seat_done:
        Py_XDECREF(hand);
        Py_XDECREF(discard);
        Py_XDECREF(groups);
        Py_XDECREF(chose);
        if (!ok) {
            goto done;
        }
        tmp = item_of(dens, s);
        if (!tmp || lib_ranks(&w, tmp, base + LIB.den, 0, NULL) < 0) {
            goto done;
        }
        Py_CLEAR(tmp);
        if (on_ship[s] && lib_one(&w, base + LIB.ship + ship_rank[s] - 1) < 0) {
            goto done;
        }
        if (acted[s] && lib_one(&w, base + LIB.acted) < 0) {
            goto done;
        }
        if (chosen_rank && lib_one(&w, base + LIB.has_chosen) < 0) {
            goto done;
        }
        tmp = item_of(den_booty, s);
        if (!tmp || lib_counts(&w, tmp, base + LIB.den_booty, LIB.den_booty_scale) < 0) {
            goto done;
        }
        Py_CLEAR(tmp);
        double v;
        tmp = item_of(doubloons, s);
        if (!tmp || number(tmp, &v) < 0 || lib_value(&w, base + LIB.doubloons, v / LIB.doubloons_scale) < 0) {
            goto done;
        }
        Py_CLEAR(tmp);
        tmp = item_of(score, s);
        if (!tmp || number(tmp, &v) < 0 || lib_value(&w, base + LIB.score, v / LIB.score_scale) < 0) {
            goto done;
        }
        Py_CLEAR(tmp);
    }
    /* the days' booty, the bag, the undealt ranks */
    {
        PyObject *days = PyObject_GetAttrString(state, "booty_days");
        PyObject *fast = days ? PySequence_Fast(days, "booty_days must be a sequence") : NULL;
        Py_XDECREF(days);
        if (!fast) {
            goto done;
        }
        Py_ssize_t m = PySequence_Fast_GET_SIZE(fast);
        for (Py_ssize_t day = 0; day < m; day++) {
            if (lib_counts(&w, PySequence_Fast_GET_ITEM(fast, day), LIB.booty_days + (long)day * LIB.tokens,
                           LIB.booty_days_scale) < 0) {
                Py_DECREF(fast);
                goto done;
            }
        }
        Py_DECREF(fast);
    }
    tmp = PyObject_GetAttrString(state, "bag");
    if (!tmp || lib_counts(&w, tmp, LIB.bag, LIB.bag_scale) < 0) {
        goto done;
    }
    Py_CLEAR(tmp);
    tmp = PyObject_GetAttrString(state, "undealt");
    if (!tmp || lib_ranks(&w, tmp, LIB.undealt, 0, NULL) < 0) {
        goto done;
    }
    Py_CLEAR(tmp);
    /* what the caller gathered, then the 1s */
    if (write_values(out.data, out.size, args[5], args[6]) < 0) {
        goto done;
    }
    clip(out.data, out.size);
    for (Py_ssize_t i = 0; i < w.ones; i++) {
        out.data[lib_ones[i]] = 1.0f;
    }
    if (write_ones(out.data, out.size, args[4]) < 0) {
        goto done;
    }
    result = Py_NewRef(Py_None);
done:
    Py_XDECREF(tmp);
    Py_XDECREF(hands);
    Py_XDECREF(discards);
    Py_XDECREF(dens);
    Py_XDECREF(chosen);
    Py_XDECREF(hidden);
    Py_XDECREF(den_booty);
    Py_XDECREF(doubloons);
    Py_XDECREF(score);
    Py_XDECREF(ship);
    PyBuffer_Release(&out.view);
    return result;
}

/* ---- lying_pirates: the base game's part of Lying Pirates' observation ---------------------------------- */

/* The field offsets and tables of envs/lying_pirates/encoder.py, set once by lying_pirates_layout(). */
enum {
    LP_SEAT, LP_PRESENT, LP_PHANTOM, LP_POSITION, LP_LAPS, LP_HOME, LP_COINS, LP_CREW, LP_HAND_SIZE, LP_KNOWN,
    LP_TILES, LP_EXCLUDED, LP_NEXT_EXCLUDED, LP_USED, LP_TOKEN, LP_RESULT, LP_BATTLING, LP_ICON, LP_REVEAL,
    LP_FINAL_CREW, LP_CUP, LP_BETS, LP_LAST_QUANTITY, LP_LAST_FACE, LP_IN_PLAY, LP_PHASE, LP_DECISION,
    LP_REROLL_DIE, LP_CARD, LP_TILE, LP_SAIL_DIE, LP_PT_DIE, LP_PT_FACE, LP_DIRECTION, LP_MAP, LP_PLAYED,
    LP_DISCARD, LP_DECK, LP_PICKS, LP_OWN_TILES, LP_ROUND, LP_BET_FACES, LP_LOWEST_FACE, LP_MAX_CAPTAINS,
    LP_BASE_TILES, LP_MAYOR_DIE, LP_OTHER_PHASE, LP_WINNER, LP_LOSER, LP_SURVIVOR, LP_INTS
};
#define LP_DIE_AT 256   /* die kinds x faces */
#define LP_WATER_OF 256 /* tiles */
#define LP_HELD 16      /* special dice */
#define LP_VALUES 1024  /* values of one observation (c_n * (5 + kinds) + a few) */
#define LP_SEEN 16384   /* the largest observation: both layouts are a few thousand values */
/* the frames the observation reads, in lying_pirates_layout()'s order */
enum { LP_PLACING, LP_BATTLE, LP_FINAL, LP_REROLL, LP_EFFECT, LP_DRAFT, LP_FRAMES };

/* the attribute and key names read, made once (PyObject_GetAttrString would make each at every call) */
enum { LPN_betting, LPN_bids, LPN_captains, LPN_card, LPN_coins, LPN_crew, LPN_crews, LPN_cups, LPN_deck, LPN_dice_in_play, LPN_die, LPN_direction, LPN_discard, LPN_excluded, LPN_face, LPN_hands, LPN_holder, LPN_known, LPN_next_excluded, LPN_losers, LPN_num_players, LPN_pending, LPN_phantom, LPN_phase, LPN_picked, LPN_played, LPN_progress, LPN_pt, LPN_resolver, LPN_result, LPN_reveal, LPN_rolling, LPN_rolls, LPN_round_no, LPN_sail_die, LPN_slots, LPN_source, LPN_stack, LPN_tiles, LPN_token, LPN_used, LPN_winner, LPN_COUNT };
static const char *lp_name_text[LPN_COUNT] = {"betting", "bids", "captains", "card", "coins", "crew", "crews", "cups", "deck", "dice_in_play", "die", "direction", "discard", "excluded", "face", "hands", "holder", "known", "next_excluded", "losers", "num_players", "pending", "phantom", "phase", "picked", "played", "progress", "pt", "resolver", "result", "reveal", "rolling", "rolls", "round_no", "sail_die", "slots", "source", "stack", "tiles", "token", "used", "winner"};
#define LPN(n) LP.names[LPN_##n]

static struct {
    int ready;
    PyObject *names[LPN_COUNT];
    long i[LP_INTS];
    long die_at[LP_DIE_AT], die_kinds, die_faces; /* die_at[kind * die_faces + face] */
    long water_of[LP_WATER_OF], tiles;            /* -1: the tile has no water */
    PyObject *held_die[LP_HELD];
    long held_at[LP_HELD], held;
    PyObject *phases, *decisions, *reroll_dice, *pt_dice, *pt_faces; /* dicts: name -> index */
    PyObject *frames[LP_FRAMES];
    PyObject *seat_names[64]; /* "0", "1", ...: the reveal's keys */
} LP;

PyDoc_STRVAR(lying_pirates_layout_doc,
"lying_pirates_layout(ints, die_at, water_of, held, phases, decisions, reroll_dice, pt_dice, pt_faces, frames)\n\n"
"Set what ``lying_pirates`` writes, once (``envs/lying_pirates/encoder.py``): the field offsets and constants\n"
"(``ints``), the cup's position per die kind and face, each tile's water index (-1: none), the special dice\n"
"as (die, position of 'holds it'), the one-hots' indexes by name (dicts), and the frame classes (Placing,\n"
"Battle, FinalBattle, Reroll, Effect, Draft).");

static PyObject *lying_pirates_layout(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 10) {
        PyErr_SetString(PyExc_TypeError, "lying_pirates_layout takes 10 arguments");
        return NULL;
    }
    if (LP.ready) { /* the tables are the module's constants: set once */
        Py_RETURN_NONE;
    }
    if (read_longs(args[0], LP.i, LP_INTS, "ints")) {
        return NULL;
    }
    PyObject *fast;
    if (!(fast = PySequence_Fast(args[1], "die_at must be a sequence of rows"))) {
        return NULL;
    }
    LP.die_kinds = PySequence_Fast_GET_SIZE(fast);
    LP.die_faces = -1;
    for (Py_ssize_t k = 0; k < LP.die_kinds; k++) {
        PyObject *row = PySequence_Fast(PySequence_Fast_GET_ITEM(fast, k), "die_at rows must be sequences");
        if (!row) {
            Py_DECREF(fast);
            return NULL;
        }
        Py_ssize_t m = PySequence_Fast_GET_SIZE(row);
        if ((LP.die_faces >= 0 && m != LP.die_faces) || (k + 1) * m > LP_DIE_AT) {
            Py_DECREF(row);
            Py_DECREF(fast);
            PyErr_SetString(PyExc_ValueError, "die_at: rows of one length, 256 values at most");
            return NULL;
        }
        LP.die_faces = m;
        for (Py_ssize_t f = 0; f < m; f++) {
            LP.die_at[k * m + f] = PyLong_AsLong(PySequence_Fast_GET_ITEM(row, f));
        }
        Py_DECREF(row);
    }
    Py_DECREF(fast);
    if (!(fast = PySequence_Fast(args[2], "water_of must be a sequence"))) {
        return NULL;
    }
    LP.tiles = PySequence_Fast_GET_SIZE(fast);
    if (LP.tiles > LP_WATER_OF) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "too many tiles");
        return NULL;
    }
    for (Py_ssize_t t = 0; t < LP.tiles; t++) {
        LP.water_of[t] = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, t));
    }
    Py_DECREF(fast);
    if (!(fast = PySequence_Fast(args[3], "held must be a sequence of (die, position)"))) {
        return NULL;
    }
    LP.held = PySequence_Fast_GET_SIZE(fast);
    if (LP.held > LP_HELD) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "too many special dice");
        return NULL;
    }
    for (Py_ssize_t k = 0; k < LP.held; k++) {
        PyObject *pair = PySequence_Fast_GET_ITEM(fast, k);
        if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2) {
            Py_DECREF(fast);
            PyErr_SetString(PyExc_ValueError, "held: (die, position) pairs");
            return NULL;
        }
        LP.held_die[k] = Py_NewRef(PyTuple_GET_ITEM(pair, 0));
        LP.held_at[k] = PyLong_AsLong(PyTuple_GET_ITEM(pair, 1));
    }
    Py_DECREF(fast);
    PyObject **dicts[] = {&LP.phases, &LP.decisions, &LP.reroll_dice, &LP.pt_dice, &LP.pt_faces};
    for (int k = 0; k < 5; k++) {
        if (!PyDict_Check(args[4 + k])) {
            PyErr_SetString(PyExc_TypeError, "the one-hots' indexes are dicts");
            return NULL;
        }
        *dicts[k] = Py_NewRef(args[4 + k]);
    }
    if (!(fast = PySequence_Fast(args[9], "frames must be a sequence of classes"))) {
        return NULL;
    }
    if (PySequence_Fast_GET_SIZE(fast) != LP_FRAMES) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%d frame classes expected", LP_FRAMES);
        return NULL;
    }
    for (int k = 0; k < LP_FRAMES; k++) {
        LP.frames[k] = Py_NewRef(PySequence_Fast_GET_ITEM(fast, k));
    }
    Py_DECREF(fast);
    for (int k = 0; k < LPN_COUNT; k++) {
        if (!(LP.names[k] = PyUnicode_InternFromString(lp_name_text[k]))) {
            return NULL;
        }
    }
    for (int k = 0; k < 64; k++) {
        if (!(LP.seat_names[k] = PyUnicode_FromFormat("%d", k))) {
            return NULL;
        }
    }
    if (PyErr_Occurred()) {
        return NULL;
    }
    if (LP.i[LP_MAX_CAPTAINS] < 2 || LP.i[LP_MAX_CAPTAINS] > 64 || LP.die_faces < 1 || LP.i[LP_SEAT] < 1) {
        PyErr_SetString(PyExc_ValueError, "unexpected lying_pirates layout");
        return NULL;
    }
    LP.ready = 1;
    Py_RETURN_NONE;
}

typedef struct {
    float *out;
    Py_ssize_t size;
    long n;                 /* captains */
    long seat;
    Py_ssize_t values;      /* gathered (at, value) pairs, written after every count */
    Py_ssize_t at[LP_VALUES];
    double value[LP_VALUES];
    Py_ssize_t touched;     /* the positions written, each once: only they need the scale */
    Py_ssize_t touched_at[LP_SEEN];
    unsigned char seen[LP_SEEN];
} LPWork;

static LPWork lp_work; /* under the GIL: one call at a time */

/* ``x`` written at ``p`` (inside the vector), which is noted for the division by its scale */
static inline void lp_put(LPWork *w, Py_ssize_t p, float x) {
    w->out[p] = x;
    if (!w->seen[p]) {
        w->seen[p] = 1;
        w->touched_at[w->touched++] = p;
    }
}

/* 1 added at ``p`` (``Layout.encode``'s bincount: a position outside the vector is refused) */
static inline int lp_count(LPWork *w, long p) {
    if (p < 0 || p >= w->size) {
        PyErr_Format(PyExc_ValueError, "counted position %ld is outside the observation of %zd values", p, w->size);
        return -1;
    }
    lp_put(w, p, w->out[p] + 1.0f);
    return 0;
}

static inline int lp_value(LPWork *w, long p, double v) {
    if (w->values >= LP_VALUES) {
        PyErr_SetString(PyExc_ValueError, "too many values");
        return -1;
    }
    w->at[w->values] = p;
    w->value[w->values++] = v;
    return 0;
}

/* a sequence's index as Python's list indexing reads it (a negative one from the end) */
static inline int lp_index(long i, Py_ssize_t len, long *q) {
    long k = i < 0 ? i + (long)len : i;
    if (k < 0 || k >= len) {
        PyErr_SetString(PyExc_IndexError, "index out of range");
        return -1;
    }
    *q = k;
    return 0;
}

/* where captain ``c``'s seat block starts (relative to the observer) */
static inline int lp_base(LPWork *w, long c, long *b) {
    long q;
    if (lp_index(c, w->n, &q) < 0) {
        return -1;
    }
    *b = modulo(q - w->seat, w->n) * LP.i[LP_SEAT];
    return 0;
}

static inline int lp_long(PyObject *item, long *v) {
    *v = PyLong_AsLong(item);
    return (*v == -1 && PyErr_Occurred()) ? -1 : 0;
}

static inline int lp_attr_long(PyObject *obj, PyObject *name, long *v) {
    PyObject *x = PyObject_GetAttr(obj, name);
    if (!x) {
        return -1;
    }
    int rc = lp_long(x, v);
    Py_DECREF(x);
    return rc;
}

/* a cup's dice's positions from ``first`` (the Mayor die has fields of its own, in the options' blocks) */
static int lp_cup(LPWork *w, PyObject *cup, long first) {
    PyObject *fast = PySequence_Fast(cup, "a cup is a sequence of dice");
    if (!fast) {
        return -1;
    }
    Py_ssize_t m = PySequence_Fast_GET_SIZE(fast);
    for (Py_ssize_t k = 0; k < m; k++) {
        long kind, face, row, col;
        if (die(PySequence_Fast_GET_ITEM(fast, k), &kind, &face) < 0) {
            Py_DECREF(fast);
            return -1;
        }
        if (kind == LP.i[LP_MAYOR_DIE]) {
            continue;
        }
        if (lp_index(kind, LP.die_kinds, &row) < 0 || lp_index(face, LP.die_faces, &col) < 0 ||
            lp_count(w, first + LP.die_at[row * LP.die_faces + col]) < 0) {
            Py_DECREF(fast);
            return -1;
        }
    }
    Py_DECREF(fast);
    return 0;
}

/* ``first + x`` counted for every item x of the sequence ``items`` (for seat positions: base(x) + first) */
static int lp_items(LPWork *w, PyObject *items, long first, int seats) {
    PyObject *fast = PySequence_Fast(items, "expected a sequence");
    if (!fast) {
        return -1;
    }
    Py_ssize_t m = PySequence_Fast_GET_SIZE(fast);
    for (Py_ssize_t k = 0; k < m; k++) {
        long x, b;
        if (lp_long(PySequence_Fast_GET_ITEM(fast, k), &x) < 0 || (seats && lp_base(w, x, &b) < 0) ||
            lp_count(w, seats ? b + first : first + x) < 0) {
            Py_DECREF(fast);
            return -1;
        }
    }
    Py_DECREF(fast);
    return 0;
}

/* the value at index ``i`` of sequence ``seq`` as a long (Python's indexing) */
static int lp_item_long(PyObject *seq, long i, long *v) {
    PyObject *x = PySequence_GetItem(seq, i);
    if (!x) {
        return -1;
    }
    int rc = lp_long(x, v);
    Py_DECREF(x);
    return rc;
}

/* index of ``key`` in one of the one-hot dicts; -1 without an error when it is not there */
static inline long lp_lookup(PyObject *dict, PyObject *key, int *failed) {
    PyObject *v = PyDict_GetItemWithError(dict, key);
    if (!v) {
        *failed = PyErr_Occurred() != NULL;
        return -1;
    }
    long x = PyLong_AsLong(v);
    *failed = x == -1 && PyErr_Occurred();
    return x;
}

static int lp_gather(LPWork *w, PyObject *state);

PyDoc_STRVAR(lying_pirates_doc,
"lying_pirates(out, scales, state, seat, counted, at, values)\n\n"
"``encoder._gather``'s part of ``seat``'s observation of a Lying Pirates ``state`` (the base game's fields),\n"
"with what the options' encoder gathered (``counted``, ``at``/``values``), encoded as ``Layout.encode``\n"
"does into ``out`` (float32 zeros of the layout's size; ``scales`` the layout's float32 scales): 1 added per\n"
"count, then every value written, then every position divided by its scale and clipped at 1.");

static PyObject *lying_pirates(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 7) {
        PyErr_SetString(PyExc_TypeError, "lying_pirates takes 7 arguments");
        return NULL;
    }
    if (!LP.ready) {
        PyErr_SetString(PyExc_RuntimeError, "lying_pirates_layout() was not called");
        return NULL;
    }
    Floats out, scales;
    if (floats_get(args[0], &out, 1) < 0) {
        return NULL;
    }
    if (floats_get(args[1], &scales, 0) < 0) {
        PyBuffer_Release(&out.view);
        return NULL;
    }
    PyObject *result = NULL, *counted = NULL, *at = NULL, *values = NULL;
    LPWork *w = &lp_work;
    w->out = out.data;
    w->size = out.size;
    w->values = 0;
    w->touched = 0;
    Py_ssize_t m;
    if (scales.size != out.size) {
        PyErr_SetString(PyExc_ValueError, "out and scales differ in size");
        goto done;
    }
    if (out.size > LP_SEEN) {
        PyErr_SetString(PyExc_ValueError, "an observation larger than the kernel's marks");
        goto done;
    }
    if (lp_long(args[3], &w->seat) < 0 || lp_attr_long(args[2], LPN(captains), &w->n) < 0) {
        goto done;
    }
    if (w->n < 2 || w->n > LP.i[LP_MAX_CAPTAINS] || w->seat < 0 || w->seat >= w->n) {
        PyErr_Format(PyExc_KeyError, "(%ld, %ld)", w->n, w->seat); /* the reference's table of seatings */
        goto done;
    }
    if (lp_gather(w, args[2]) < 0) {
        goto done;
    }
    /* the options' part, as the reference appends it: its counts, then every value in order */
    if (!(counted = PySequence_Fast(args[4], "counted must be a sequence"))) {
        goto done;
    }
    m = PySequence_Fast_GET_SIZE(counted);
    for (Py_ssize_t k = 0; k < m; k++) {
        Py_ssize_t p = PyNumber_AsSsize_t(PySequence_Fast_GET_ITEM(counted, k), PyExc_OverflowError);
        if ((p == -1 && PyErr_Occurred()) || lp_count(w, (long)p) < 0) {
            goto done;
        }
    }
    for (Py_ssize_t k = 0; k < w->values; k++) {
        Py_ssize_t p = w->at[k] < 0 ? w->at[k] + w->size : w->at[k];
        if (p < 0 || p >= w->size) {
            PyErr_Format(PyExc_IndexError, "index %zd is out of bounds for an observation of %zd values", w->at[k],
                         w->size);
            goto done;
        }
        lp_put(w, p, (float)w->value[k]);
    }
    if (!(at = PySequence_Fast(args[5], "positions must be a sequence")) ||
        !(values = PySequence_Fast(args[6], "values must be a sequence"))) {
        goto done;
    }
    m = PySequence_Fast_GET_SIZE(at);
    if (PySequence_Fast_GET_SIZE(values) != m) {
        PyErr_Format(PyExc_ValueError, "%zd positions but %zd values", m, PySequence_Fast_GET_SIZE(values));
        goto done;
    }
    for (Py_ssize_t k = 0; k < m; k++) {
        Py_ssize_t p = position(PySequence_Fast_GET_ITEM(at, k), out.size);
        double v;
        if (p < 0 || number(PySequence_Fast_GET_ITEM(values, k), &v) < 0) {
            goto done;
        }
        lp_put(w, p, (float)v);
    }
    /* out came as zeros: only the positions written can be other than 0, whose division by the scale gives 0 */
    for (Py_ssize_t k = 0; k < w->touched; k++) {
        Py_ssize_t p = w->touched_at[k];
        if (out.data[p] != 0.0f) {
            float x = out.data[p] / scales.data[p];
            out.data[p] = x > 1.0f ? 1.0f : x;
        }
    }
    result = Py_NewRef(Py_None);
done:
    for (Py_ssize_t k = 0; k < w->touched; k++) {
        w->seen[w->touched_at[k]] = 0;
    }
    w->touched = 0;
    Py_XDECREF(at);
    Py_XDECREF(values);
    Py_XDECREF(counted);
    PyBuffer_Release(&out.view);
    PyBuffer_Release(&scales.view);
    return result;
}

/* ``encoder._gather``, line for line (its comments say why each field is what it is) */
static int lp_gather(LPWork *w, PyObject *state) {
    const long *I = LP.i;
    long n = w->n, seat = w->seat;
    int rc = -1, failed = 0;
    PyObject *slots = NULL, *progress = NULL, *hands = NULL, *crews = NULL, *x = NULL, *y = NULL, *fast = NULL;
    PyObject *frame[LP_FRAMES] = {NULL};
    long base[64], prog[64], lap, v, b;
    for (long c = 0; c < n; c++) {
        base[c] = modulo(c - seat, n) * I[LP_SEAT];
    }
    /* the work in progress by kind, the topmost of each (the reference's ``work`` dict) */
    if (!(x = PyObject_GetAttr(state, LPN(stack))) || !(fast = PySequence_Fast(x, "stack must be a sequence"))) {
        goto done;
    }
    for (Py_ssize_t k = 0; k < PySequence_Fast_GET_SIZE(fast); k++) {
        PyObject *f = PySequence_Fast_GET_ITEM(fast, k);
        for (int j = 0; j < LP_FRAMES; j++) {
            if ((PyObject *)Py_TYPE(f) == LP.frames[j]) {
                Py_XSETREF(frame[j], Py_NewRef(f));
            }
        }
    }
    Py_CLEAR(fast);
    Py_CLEAR(x);
    if (!(slots = PyObject_GetAttr(state, LPN(slots))) || !(progress = PyObject_GetAttr(state, LPN(progress))) ||
        !(hands = PyObject_GetAttr(state, LPN(hands))) || !(crews = PyObject_GetAttr(state, LPN(crews)))) {
        goto done;
    }
    Py_ssize_t len = PyObject_Length(slots);
    if (len < 0) {
        goto done;
    }
    lap = (long)len;
    if (PyObject_Length(progress) != n) {
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_ValueError, "progress is not one value per captain");
        }
        goto done;
    }
    long most = 0;
    for (long c = 0; c < n; c++) {
        if (lp_item_long(progress, c, &prog[c]) < 0) {
            goto done;
        }
        most = c == 0 || prog[c] > most ? prog[c] : most;
    }
    if (lap == 0) {
        PyErr_SetString(PyExc_ZeroDivisionError, "integer modulo by zero");
        goto done;
    }
    for (long c = 0; c < n; c++) {
        if (lp_count(w, base[c] + I[LP_PRESENT]) < 0 || lp_count(w, base[c] + I[LP_POSITION] + modulo(prog[c], lap)) < 0) {
            goto done;
        }
    }
    if (most >= lap) {
        for (long c = 0; c < n; c++) {
            if (prog[c] >= lap && lp_count(w, base[c] + I[LP_HOME]) < 0) {
                goto done;
            }
        }
    }
    /* laps, coins, crew, hand size: field by field */
    for (long c = 0; c < n; c++) {
        if (lp_value(w, base[c] + I[LP_LAPS], (double)prog[c] / (double)lap) < 0) {
            goto done;
        }
    }
    {
        PyObject *lists[2] = {NULL, NULL};
        long fields[2] = {I[LP_COINS], I[LP_CREW]};
        if (!(lists[0] = PyObject_GetAttr(state, LPN(coins))) ||
            !(lists[1] = PyObject_GetAttr(crews, LPN(crew)))) {
            Py_XDECREF(lists[0]);
            goto done;
        }
        int ok = 1;
        for (int j = 0; j < 2 && ok; j++) {
            PyObject *f = PySequence_Fast(lists[j], "coins and crews are sequences");
            if (!f || PySequence_Fast_GET_SIZE(f) != n) {
                if (f) {
                    PyErr_SetString(PyExc_ValueError, "coins and crews hold one value per captain");
                }
                ok = 0;
            }
            for (long c = 0; ok && c < n; c++) {
                double d;
                ok = number(PySequence_Fast_GET_ITEM(f, c), &d) == 0 && lp_value(w, base[c] + fields[j], d) == 0;
            }
            Py_XDECREF(f);
        }
        Py_DECREF(lists[0]);
        Py_DECREF(lists[1]);
        if (!ok) {
            goto done;
        }
    }
    if (PyObject_Length(hands) != n) {
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_ValueError, "hands is not one per captain");
        }
        goto done;
    }
    for (long c = 0; c < n; c++) {
        x = PySequence_GetItem(hands, c);
        Py_ssize_t size = x ? PyObject_Length(x) : -1;
        if (size < 0 || lp_value(w, base[c] + I[LP_HAND_SIZE], (double)size) < 0) {
            goto done;
        }
        if (c == seat && lp_items(w, x, base[c] + I[LP_KNOWN], 0) < 0) {
            goto done;
        }
        Py_CLEAR(x);
    }
    if (lp_attr_long(state, LPN(phantom), &v) < 0 || (v >= 0 && (lp_base(w, v, &b) < 0 || lp_count(w, b + I[LP_PHANTOM]) < 0))) {
        goto done;
    }
    /* what the observer knows of the others' hands */
    if (!(x = PyObject_GetAttr(state, LPN(known))) || !(y = PySequence_GetItem(x, seat)) ||
        !(fast = PySequence_Fast(y, "known rows are sequences"))) {
        goto done;
    }
    for (Py_ssize_t c = 0; c < PySequence_Fast_GET_SIZE(fast); c++) {
        if (c == seat) {
            continue;
        }
        PyObject *row = PySequence_Fast(PySequence_Fast_GET_ITEM(fast, c), "known rows are sequences");
        if (!row) {
            goto done;
        }
        for (Py_ssize_t k = 0; k < PySequence_Fast_GET_SIZE(row); k++) {
            PyObject *count = PySequence_Fast_GET_ITEM(row, k);
            int nonzero = PyObject_IsTrue(count);
            double d;
            if (nonzero < 0 || (nonzero && (lp_base(w, (long)c, &b) < 0 || number(count, &d) < 0 ||
                                            lp_value(w, b + I[LP_KNOWN] + (long)k, d) < 0))) {
                Py_DECREF(row);
                goto done;
            }
        }
        Py_DECREF(row);
    }
    Py_CLEAR(fast);
    Py_CLEAR(y);
    Py_CLEAR(x);
    if (frame[LP_PLACING]) {
        if (!(x = PyObject_GetAttr(frame[LP_PLACING], LPN(tiles))) ||
            !(fast = PySequence_Fast(x, "placing tiles are sequences"))) {
            goto done;
        }
        for (Py_ssize_t c = 0; c < PySequence_Fast_GET_SIZE(fast); c++) {
            PyObject *tiles = PySequence_Fast(PySequence_Fast_GET_ITEM(fast, c), "placing tiles are sequences");
            if (!tiles || lp_base(w, (long)c, &b) < 0) {
                Py_XDECREF(tiles);
                goto done;
            }
            for (Py_ssize_t k = 0; k < PySequence_Fast_GET_SIZE(tiles); k++) {
                long t;
                if (lp_long(PySequence_Fast_GET_ITEM(tiles, k), &t) < 0) {
                    Py_DECREF(tiles);
                    goto done;
                }
                if (t < 0 || t >= LP.tiles || LP.water_of[t] < 0) {
                    PyErr_Format(PyExc_KeyError, "%ld", t);
                    Py_DECREF(tiles);
                    goto done;
                }
                if (lp_count(w, b + I[LP_TILES] + LP.water_of[t]) < 0) {
                    Py_DECREF(tiles);
                    goto done;
                }
            }
            Py_DECREF(tiles);
        }
        Py_CLEAR(fast);
        Py_CLEAR(x);
    }
    {
        PyObject *names[2] = {LPN(excluded), LPN(next_excluded)};
        long fields[2] = {I[LP_EXCLUDED], I[LP_NEXT_EXCLUDED]};
        for (int j = 0; j < 2; j++) {
            if (!(x = PyObject_GetAttr(state, names[j])) || lp_items(w, x, fields[j], 1) < 0) {
                goto done;
            }
            Py_CLEAR(x);
        }
    }
    /* the used cards and rerolls, three a captain, read in a row as the reference's compress() does */
    if (!(x = PyObject_GetAttr(state, LPN(used))) || !(fast = PySequence_Fast(x, "used is a sequence"))) {
        goto done;
    }
    {
        long j = 0;
        for (Py_ssize_t c = 0; c < PySequence_Fast_GET_SIZE(fast) && j < 3 * n; c++) {
            PyObject *row = PySequence_Fast(PySequence_Fast_GET_ITEM(fast, c), "used rows are sequences");
            if (!row) {
                goto done;
            }
            for (Py_ssize_t k = 0; k < PySequence_Fast_GET_SIZE(row) && j < 3 * n; k++, j++) {
                int on = PyObject_IsTrue(PySequence_Fast_GET_ITEM(row, k));
                if (on < 0 || (on && lp_count(w, base[j / 3] + I[LP_USED] + j % 3) < 0)) {
                    Py_DECREF(row);
                    goto done;
                }
            }
            Py_DECREF(row);
        }
    }
    Py_CLEAR(fast);
    Py_CLEAR(x);
    if (lp_attr_long(state, LPN(token), &v) < 0 || (v >= 0 && (lp_base(w, v, &b) < 0 || lp_count(w, b + I[LP_TOKEN]) < 0))) {
        goto done;
    }
    /* this round's result */
    if (!(x = PyObject_GetAttr(state, LPN(result)))) {
        goto done;
    }
    int truth = PyObject_IsTrue(x);
    if (truth < 0) {
        goto done;
    }
    if (truth) {
        long outcome[64], q;
        for (long c = 0; c < n; c++) {
            outcome[c] = I[LP_SURVIVOR];
        }
        if (!(y = PyObject_GetItem(x, LPN(losers))) || !(fast = PySequence_Fast(y, "losers is a sequence"))) {
            goto done;
        }
        for (Py_ssize_t k = 0; k < PySequence_Fast_GET_SIZE(fast); k++) {
            if (lp_long(PySequence_Fast_GET_ITEM(fast, k), &v) < 0 || lp_index(v, n, &q) < 0) {
                goto done;
            }
            outcome[q] = I[LP_LOSER];
        }
        Py_CLEAR(fast);
        Py_CLEAR(y);
        if (!(y = PyObject_GetItem(x, LPN(winner))) || lp_long(y, &v) < 0 || lp_index(v, n, &q) < 0) {
            goto done;
        }
        Py_CLEAR(y);
        outcome[q] = I[LP_WINNER];
        for (long c = 0; c < n; c++) {
            if (lp_count(w, base[c] + I[LP_RESULT] + outcome[c]) < 0) {
                goto done;
            }
        }
    }
    Py_CLEAR(x);
    /* the battle being fought */
    PyObject *fight = frame[LP_BATTLE];
    if (fight) {
        truth = PyObject_IsTrue(fight);
        if (truth < 0) {
            goto done;
        }
        if (!truth) {
            fight = NULL;
        }
    }
    fight = fight ? fight : frame[LP_FINAL];
    if (fight && (truth = PyObject_IsTrue(fight)) != 0) {
        if (truth < 0 || !(x = PyObject_GetAttr(fight, LPN(rolls))) ||
            !(y = PyObject_GetAttr(fight, LPN(rolling))) || !(fast = PySequence_Fast(y, "rolling is a sequence"))) {
            goto done;
        }
        for (Py_ssize_t k = 0; k < PySequence_Fast_GET_SIZE(fast); k++) {
            long c, roll;
            if (lp_long(PySequence_Fast_GET_ITEM(fast, k), &c) < 0 || lp_base(w, c, &b) < 0 ||
                lp_count(w, b + I[LP_BATTLING]) < 0 || lp_item_long(x, c, &roll) < 0 ||
                (roll >= 0 && lp_count(w, b + I[LP_ICON] + roll) < 0)) {
                goto done;
            }
        }
        Py_CLEAR(fast);
        Py_CLEAR(y);
        Py_CLEAR(x);
    }
    /* the cups at the last reveal, by seat as its keys name them ("0", "1", ...) */
    if (!(x = PyObject_GetAttr(state, LPN(reveal))) || (truth = PyObject_IsTrue(x)) < 0) {
        goto done;
    }
    if (truth) {
        if (!(y = PyObject_GetItem(x, LPN(cups)))) {
            goto done;
        }
        if (!PyDict_Check(y)) {
            PyErr_SetString(PyExc_TypeError, "the reveal's cups are a dict");
            goto done;
        }
        Py_ssize_t pos = 0;
        PyObject *key, *cup;
        while (PyDict_Next(y, &pos, &key, &cup)) {
            long c = -1;
            for (long k = 0; k < n && c < 0; k++) {
                int eq = PyUnicode_Check(key) ? PyUnicode_Compare(key, LP.seat_names[k]) : 1;
                if (eq == -1 && PyErr_Occurred()) {
                    goto done;
                }
                c = eq == 0 ? k : -1;
            }
            if (c < 0) {
                PyErr_SetObject(PyExc_KeyError, key);
                goto done;
            }
            if (lp_cup(w, cup, base[c] + I[LP_REVEAL]) < 0) {
                goto done;
            }
        }
        Py_CLEAR(y);
    }
    Py_CLEAR(x);
    if (frame[LP_FINAL] && (truth = PyObject_IsTrue(frame[LP_FINAL])) != 0) {
        if (truth < 0 || !(x = PyObject_GetAttr(frame[LP_FINAL], LPN(crew))) ||
            !(fast = PySequence_Fast(x, "the final crews are a sequence"))) {
            goto done;
        }
        if (PySequence_Fast_GET_SIZE(fast) != n) {
            PyErr_SetString(PyExc_ValueError, "the final battle's crews are not one per captain");
            goto done;
        }
        for (long c = 0; c < n; c++) {
            double d;
            if (number(PySequence_Fast_GET_ITEM(fast, c), &d) < 0 || lp_value(w, base[c] + I[LP_FINAL_CREW], d) < 0) {
                goto done;
            }
        }
        Py_CLEAR(fast);
        Py_CLEAR(x);
    }
    /* who holds each special die */
    if (!(x = PyObject_GetAttr(crews, LPN(holder)))) {
        goto done;
    }
    for (long k = 0; k < LP.held; k++) {
        if (!(y = PyObject_GetItem(x, LP.held_die[k])) || lp_long(y, &v) < 0 ||
            (v >= 0 && (lp_base(w, v, &b) < 0 || lp_count(w, b + LP.held_at[k]) < 0))) {
            goto done;
        }
        Py_CLEAR(y);
    }
    Py_CLEAR(x);
    /* the Betting phase: the own cup, the bets, the dice in play */
    if (!(x = PyObject_GetAttr(state, LPN(betting)))) {
        goto done;
    }
    if (x != Py_None) {
        PyObject *seat_key = PyLong_FromLong(seat);
        if (!seat_key || !(y = PyObject_GetAttr(x, LPN(cups)))) {
            Py_XDECREF(seat_key);
            goto done;
        }
        truth = PySequence_Contains(y, seat_key);
        PyObject *cup = truth > 0 ? PyObject_GetItem(y, seat_key) : NULL;
        Py_DECREF(seat_key);
        Py_CLEAR(y);
        if (truth < 0 || (truth && !cup)) {
            goto done;
        }
        if (cup) {
            int bad = lp_cup(w, cup, I[LP_CUP]);
            Py_DECREF(cup);
            if (bad < 0) {
                goto done;
            }
        }
        if (!(y = PyObject_GetAttr(x, LPN(bids))) || !(fast = PySequence_Fast(y, "bids are a sequence"))) {
            goto done;
        }
        Py_ssize_t bids = PySequence_Fast_GET_SIZE(fast);
        long who = 0, q = 0, f = 0;
        for (Py_ssize_t k = 0; k < bids; k++) {
            PyObject *bid = PySequence_Fast(PySequence_Fast_GET_ITEM(fast, k), "a bid is [seat, quantity, face]");
            if (!bid) {
                goto done;
            }
            int ok = PySequence_Fast_GET_SIZE(bid) == 3 && lp_long(PySequence_Fast_GET_ITEM(bid, 0), &who) == 0 &&
                     lp_long(PySequence_Fast_GET_ITEM(bid, 1), &q) == 0 &&
                     lp_long(PySequence_Fast_GET_ITEM(bid, 2), &f) == 0;
            Py_DECREF(bid);
            if (!ok) {
                if (!PyErr_Occurred()) {
                    PyErr_SetString(PyExc_ValueError, "a bid is [seat, quantity, face]");
                }
                goto done;
            }
            if (lp_count(w, I[LP_BETS] + ((q - 1) * I[LP_BET_FACES] + f - I[LP_LOWEST_FACE]) * I[LP_MAX_CAPTAINS] +
                                modulo(who - seat, n)) < 0) {
                goto done;
            }
        }
        Py_CLEAR(fast);
        Py_CLEAR(y);
        if (bids && (lp_count(w, I[LP_LAST_FACE] + f - I[LP_LOWEST_FACE]) < 0 ||
                     lp_value(w, I[LP_LAST_QUANTITY], (double)q) < 0)) {
            goto done;
        }
        double d;
        if (!(y = PyObject_GetAttr(x, LPN(dice_in_play))) || number(y, &d) < 0 || lp_value(w, I[LP_IN_PLAY], d) < 0) {
            goto done;
        }
        Py_CLEAR(y);
    }
    Py_CLEAR(x);
    /* the phase, the open decision, the die a reroll is for */
    if (!(x = PyObject_GetAttr(state, LPN(phase)))) {
        goto done;
    }
    if (!PyUnicode_Check(x) || PyUnicode_CompareWithASCIIString(x, "over") != 0) {
        long k = lp_lookup(LP.phases, x, &failed);
        if (failed || lp_count(w, I[LP_PHASE] + (k < 0 ? I[LP_OTHER_PHASE] : k)) < 0) {
            goto done;
        }
    }
    Py_CLEAR(x);
    if (!(x = PyObject_GetAttr(state, LPN(pending))) || (truth = PyObject_IsTrue(x)) < 0) {
        goto done;
    }
    if (truth) {
        long k;
        if (!(y = PySequence_GetItem(x, 0)) || ((k = lp_lookup(LP.decisions, y, &failed)), failed) ||
            (k >= 0 && lp_count(w, I[LP_DECISION] + k) < 0)) {
            goto done;
        }
        Py_CLEAR(y);
    }
    Py_CLEAR(x);
    if (frame[LP_REROLL] && (truth = PyObject_IsTrue(frame[LP_REROLL])) != 0) {
        long k;
        if (truth < 0 || !(x = PyObject_GetAttr(frame[LP_REROLL], LPN(die))) ||
            ((k = lp_lookup(LP.reroll_dice, x, &failed)), failed) || (k >= 0 && lp_count(w, I[LP_REROLL_DIE] + k) < 0)) {
            goto done;
        }
        Py_CLEAR(x);
    }
    /* the card or the base tile whose effect is being decided */
    if (frame[LP_EFFECT] && (truth = PyObject_IsTrue(frame[LP_EFFECT])) != 0) {
        if (truth < 0 || lp_attr_long(frame[LP_EFFECT], LPN(card), &v) < 0) {
            goto done;
        }
        if (v >= 0) {
            if (lp_count(w, I[LP_CARD] + v) < 0) {
                goto done;
            }
        } else {
            if (!(x = PyObject_GetAttr(frame[LP_EFFECT], LPN(source)))) {
                goto done;
            }
            int tile = PyUnicode_Check(x) && PyUnicode_CompareWithASCIIString(x, "tile") == 0;
            Py_CLEAR(x);
            if (tile) {
                long resolver, r, t;
                if (lp_attr_long(state, LPN(resolver), &resolver) < 0 || lp_index(resolver, n, &r) < 0 ||
                    lp_item_long(slots, modulo(prog[r], lap), &t) < 0 ||
                    (t < I[LP_BASE_TILES] && lp_count(w, I[LP_TILE] + t) < 0)) {
                    goto done;
                }
            }
        }
    }
    if (lp_attr_long(state, LPN(sail_die), &v) < 0 || (v && lp_count(w, I[LP_SAIL_DIE] + v - 1) < 0)) {
        goto done;
    }
    /* the Pirate / Treasure die of a tile and its face */
    if (!(x = PyObject_GetAttr(state, LPN(pt))) || (truth = PyObject_IsTrue(x)) < 0) {
        goto done;
    }
    if (truth) {
        PyObject *names[2] = {NULL, NULL};
        PyObject *dicts[2] = {LP.pt_dice, LP.pt_faces};
        long fields[2] = {I[LP_PT_DIE], I[LP_PT_FACE]}, k[2];
        int ok = (names[0] = PyObject_GetAttr(x, LPN(die))) && (names[1] = PyObject_GetAttr(x, LPN(face)));
        for (int j = 0; j < 2 && ok; j++) {
            k[j] = lp_lookup(dicts[j], names[j], &failed);
            if (!failed && k[j] < 0) {
                PyErr_SetString(PyExc_ValueError, "tuple.index(x): x not in tuple");
            }
            ok = k[j] >= 0;
        }
        Py_XDECREF(names[0]);
        Py_XDECREF(names[1]);
        if (!ok || lp_count(w, fields[0] + k[0]) < 0 || lp_count(w, fields[1] + k[1]) < 0) {
            goto done;
        }
    }
    Py_CLEAR(x);
    if (lp_attr_long(state, LPN(direction), &v) < 0 || (v > 0 && lp_count(w, I[LP_DIRECTION]) < 0)) {
        goto done;
    }
    /* the map, the cards played this round, the discard */
    if (!(fast = PySequence_Fast(slots, "slots are a sequence"))) {
        goto done;
    }
    for (Py_ssize_t slot = 0; slot < PySequence_Fast_GET_SIZE(fast); slot++) {
        long t;
        if (lp_long(PySequence_Fast_GET_ITEM(fast, slot), &t) < 0 ||
            (t >= 0 && t < I[LP_BASE_TILES] && lp_count(w, I[LP_MAP] + (long)slot * I[LP_BASE_TILES] + t) < 0)) {
            goto done;
        }
    }
    Py_CLEAR(fast);
    if (!(x = PyObject_GetAttr(state, LPN(played))) || !(fast = PySequence_Fast(x, "played is a sequence"))) {
        goto done;
    }
    for (Py_ssize_t k = 0; k < PySequence_Fast_GET_SIZE(fast); k++) {
        long card;
        PyObject *pair = PySequence_Fast(PySequence_Fast_GET_ITEM(fast, k), "played holds [captain, card]");
        if (!pair) {
            goto done;
        }
        int ok = PySequence_Fast_GET_SIZE(pair) == 2 && lp_long(PySequence_Fast_GET_ITEM(pair, 1), &card) == 0;
        Py_DECREF(pair);
        if (!ok) {
            if (!PyErr_Occurred()) {
                PyErr_SetString(PyExc_ValueError, "played holds [captain, card]");
            }
            goto done;
        }
        if (lp_count(w, I[LP_PLAYED] + card) < 0) {
            goto done;
        }
    }
    Py_CLEAR(fast);
    Py_CLEAR(x);
    if (!(x = PyObject_GetAttr(state, LPN(discard))) || lp_items(w, x, I[LP_DISCARD], 0) < 0) {
        goto done;
    }
    Py_CLEAR(x);
    /* the observer's own draft picks and unplaced base tiles (the Phantom has none) */
    long players;
    if (lp_attr_long(state, LPN(num_players), &players) < 0) {
        goto done;
    }
    if (frame[LP_DRAFT] && seat < players) {
        if (!(x = PyObject_GetAttr(frame[LP_DRAFT], LPN(picked))) || !(y = PySequence_GetItem(x, seat)) ||
            lp_items(w, y, I[LP_PICKS], 0) < 0) {
            goto done;
        }
        Py_CLEAR(y);
        Py_CLEAR(x);
    }
    if (frame[LP_PLACING] && seat < players) {
        if (!(x = PyObject_GetAttr(frame[LP_PLACING], LPN(tiles))) || !(y = PySequence_GetItem(x, seat)) ||
            !(fast = PySequence_Fast(y, "tiles are a sequence"))) {
            goto done;
        }
        for (Py_ssize_t k = 0; k < PySequence_Fast_GET_SIZE(fast); k++) {
            long t;
            if (lp_long(PySequence_Fast_GET_ITEM(fast, k), &t) < 0 ||
                (t < I[LP_BASE_TILES] && lp_count(w, I[LP_OWN_TILES] + t) < 0)) {
                goto done;
            }
        }
        Py_CLEAR(fast);
        Py_CLEAR(y);
        Py_CLEAR(x);
    }
    /* the deck's size and the round */
    {
        double d;
        Py_ssize_t deck;
        if (!(x = PyObject_GetAttr(state, LPN(deck))) || (deck = PyObject_Length(x)) < 0 ||
            lp_value(w, I[LP_DECK], (double)deck) < 0) {
            goto done;
        }
        Py_CLEAR(x);
        if (!(x = PyObject_GetAttr(state, LPN(round_no))) || number(x, &d) < 0 || lp_value(w, I[LP_ROUND], d) < 0) {
            goto done;
        }
    }
    Py_CLEAR(x);
    rc = 0;
done:
    for (int j = 0; j < LP_FRAMES; j++) {
        Py_XDECREF(frame[j]);
    }
    Py_XDECREF(fast);
    Py_XDECREF(x);
    Py_XDECREF(y);
    Py_XDECREF(slots);
    Py_XDECREF(progress);
    Py_XDECREF(hands);
    Py_XDECREF(crews);
    return rc;
}

/* ---- spytails: Spytails' whole observation ---------------------------------------------------------------- */

/* The field offsets and tables of envs/spytails/codec.py, set once by spytails_layout(). */
enum {
    SP_SEAT, SP_PRESENT, SP_CHARACTER, SP_TEAMMATE, SP_START, SP_LEADER, SP_TO_ACT, SP_INFLUENCE, SP_STAKE, SP_BID,
    SP_MADE, SP_LEVERAGE, SP_WON, SP_TOKENS, SP_HAND_SIZE, SP_DECK_SIZE, SP_VOIDS, SP_HAND, SP_HIDDEN, SP_DISCARD,
    SP_PLAYED, SP_OP_CARD, SP_OP_ORDER, SP_OP_FLAGS, SP_ROUND, SP_FINAL, SP_OPERATION, SP_PHASE, SP_PASS,
    SP_DECISION, SP_LED, SP_ARMED, SP_ROW, SP_DISPLAY, SP_UNSEEN, SP_KNOWN, SP_SPECIAL_SIZE, SP_SUPPLY, SP_SELECTION,
    SP_REINFORCE, SP_OPTIONS, SP_REVEALED, SP_MAX_PLAYERS, SP_MAX_ROUNDS, SP_OPERATIONS, SP_NUM_ROW_CARDS,
    SP_GHOST_TOKEN, SP_NO_SUIT, SP_INTIMIDATION, SP_SIZE, SP_INTS
};
/* the scales of the scalars, in spytails_layout()'s order */
enum { SPS_INFLUENCE, SPS_STAKE, SPS_LEVERAGE, SPS_HAND_SIZE, SPS_DECK_SIZE, SPS_SPECIAL_SIZE, SPS_SUPPLY, SPS_COUNT };
/* the strings the observation compares with, in spytails_layout()'s order */
enum { SPW_OPERATIONS, SPW_FORECAST, SPW_DEBRIEFING, SPW_REINFORCE, SPW_REGROUP, SPW_PARTNERSHIP,
       SPW_SIMULTANEOUS, SPW_COUNT };
#define SP_SUITS 256  /* card types */
#define SP_HOT 4096   /* positions set to 1 in one observation (a few dozen in a game) */
#define SP_VALUES 64  /* scalars: 5 per seat and 2 */

enum { SPN_armed, SPN_bids, SPN_characters, SPN_debrief_step, SPN_decks, SPN_discards, SPN_display,
       SPN_forecast_mode, SPN_forecast_pass, SPN_ghost_used, SPN_hands, SPN_influence, SPN_known, SPN_last_round,
       SPN_leader, SPN_leverage, SPN_leverage_supply, SPN_mode, SPN_num_players, SPN_operation, SPN_pending,
       SPN_phase, SPN_pool, SPN_power_used, SPN_regroup_used, SPN_reinforce_turn, SPN_revealed, SPN_round,
       SPN_round_ops, SPN_row, SPN_selection, SPN_special_deck, SPN_special_known, SPN_stakes, SPN_start,
       SPN_teams, SPN_trick, SPN_voids, SPN_won, SPN_COUNT };
static const char *sp_name_text[SPN_COUNT] = {"armed", "bids", "characters", "debrief_step", "decks", "discards",
    "display", "forecast_mode", "forecast_pass", "ghost_used", "hands", "influence", "known", "last_round",
    "leader", "leverage", "leverage_supply", "mode", "num_players", "operation", "pending", "phase", "pool",
    "power_used", "regroup_used", "reinforce_turn", "revealed", "round", "round_ops", "row", "selection",
    "special_deck", "special_known", "stakes", "start", "teams", "trick", "voids", "won"};

static struct {
    int ready;
    PyObject *names[SPN_COUNT];
    long i[SP_INTS];
    double scale[SPS_COUNT];
    long card_suit[SP_SUITS], cards;
    PyObject *decisions, *phases, *armed; /* dicts: name -> index */
    PyObject *words[SPW_COUNT];
} SP;

PyDoc_STRVAR(spytails_layout_doc,
"spytails_layout(ints, scales, card_suit, decisions, phases, armed, words)\n\n"
"Set what ``spytails`` writes, once (``envs/spytails/codec.py``): the field offsets and constants (``ints``),\n"
"the scalars' scales, each card type's suit, the one-hots' indexes by name (dicts) and the strings compared\n"
"with (operations, forecast, debriefing, reinforce, regroup, partnership, simultaneous).");

static PyObject *spytails_layout(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 7) {
        PyErr_SetString(PyExc_TypeError, "spytails_layout takes 7 arguments");
        return NULL;
    }
    if (SP.ready) { /* the tables are the module's constants: set once */
        Py_RETURN_NONE;
    }
    long i[SP_INTS];
    double scale[SPS_COUNT];
    long card_suit[SP_SUITS];
    if (read_longs(args[0], i, SP_INTS, "ints") || read_doubles(args[1], scale, SPS_COUNT, "scales")) {
        return NULL;
    }
    PyObject *fast;
    if (!(fast = PySequence_Fast(args[2], "card_suit must be a sequence"))) {
        return NULL;
    }
    Py_ssize_t cards = PySequence_Fast_GET_SIZE(fast);
    if (cards > SP_SUITS) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "too many card types");
        return NULL;
    }
    for (Py_ssize_t k = 0; k < cards; k++) {
        card_suit[k] = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, k));
    }
    Py_DECREF(fast);
    if (PyErr_Occurred()) {
        return NULL;
    }
    for (int k = 3; k < 6; k++) {
        if (!PyDict_Check(args[k])) {
            PyErr_SetString(PyExc_TypeError, "decisions, phases and armed must be dicts");
            return NULL;
        }
    }
    if (!(fast = PySequence_Fast(args[6], "words must be a sequence"))) {
        return NULL;
    }
    if (PySequence_Fast_GET_SIZE(fast) != SPW_COUNT) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%d words expected", SPW_COUNT);
        return NULL;
    }
    for (int k = 0; k < SPN_COUNT; k++) {
        if (!(SP.names[k] = PyUnicode_InternFromString(sp_name_text[k]))) {
            Py_DECREF(fast);
            return NULL;
        }
    }
    for (int k = 0; k < SPW_COUNT; k++) {
        SP.words[k] = Py_NewRef(PySequence_Fast_GET_ITEM(fast, k));
    }
    Py_DECREF(fast);
    memcpy(SP.i, i, sizeof i);
    memcpy(SP.scale, scale, sizeof scale);
    memcpy(SP.card_suit, card_suit, sizeof card_suit);
    SP.cards = (long)cards;
    SP.decisions = Py_NewRef(args[3]);
    SP.phases = Py_NewRef(args[4]);
    SP.armed = Py_NewRef(args[5]);
    SP.ready = 1;
    Py_RETURN_NONE;
}

typedef struct {
    float *out;
    Py_ssize_t size;
    float copy;
    long n, seat;
    long base[8];
    Py_ssize_t hot;
    long hot_at[SP_HOT];
    Py_ssize_t values;
    long value_at[SP_VALUES];
    double value[SP_VALUES];
} SPWork;

static SPWork sp_work; /* under the GIL: one call at a time */

#define SPI(k) SP.i[SP_##k]
#define SPA(obj, name) PyObject_GetAttr(obj, SP.names[SPN_##name])

static inline int sp_one(SPWork *w, long p) {
    if (w->hot >= SP_HOT) {
        PyErr_SetString(PyExc_ValueError, "too many positions set to 1");
        return -1;
    }
    w->hot_at[w->hot++] = p;
    return 0;
}

static inline int sp_value(SPWork *w, long p, double v) {
    if (w->values >= SP_VALUES) {
        PyErr_SetString(PyExc_ValueError, "too many values");
        return -1;
    }
    w->value_at[w->values] = p;
    w->value[w->values++] = v;
    return 0;
}

/* one card copy added at ``first + card`` (the reference packs the cards in bytes, then counts them) */
static inline int sp_card(SPWork *w, long first, PyObject *item) {
    long card = PyLong_AsLong(item);
    if (card == -1 && PyErr_Occurred()) {
        return -1;
    }
    if (card < 0 || card > 255) {
        PyErr_SetString(PyExc_ValueError, "byte must be in range(0, 256)");
        return -1;
    }
    long p = first + card;
    if (p < 0 || p >= w->size) {
        PyErr_Format(PyExc_IndexError, "index %ld is out of bounds for an observation of %zd values", p, w->size);
        return -1;
    }
    w->out[p] += w->copy;
    return 0;
}

/* every card of a pile (a sequence), from ``first`` */
static int sp_pile(SPWork *w, long first, PyObject *pile) {
    PyObject *fast = PySequence_Fast(pile, "a pile must be a sequence");
    if (!fast) {
        return -1;
    }
    Py_ssize_t m = PySequence_Fast_GET_SIZE(fast);
    PyObject **cards = PySequence_Fast_ITEMS(fast);
    for (Py_ssize_t k = 0; k < m; k++) {
        if (sp_card(w, first, cards[k]) < 0) {
            Py_DECREF(fast);
            return -1;
        }
    }
    Py_DECREF(fast);
    return 0;
}

/* the pile of ``seq[s]`` from ``first`` */
static int sp_pile_of(SPWork *w, long first, PyObject *seq, long s) {
    PyObject *pile = PySequence_GetItem(seq, s);
    if (!pile) {
        return -1;
    }
    int rc = sp_pile(w, first, pile);
    Py_DECREF(pile);
    return rc;
}

static inline int sp_long(PyObject *item, long *v) {
    *v = PyLong_AsLong(item);
    return (*v == -1 && PyErr_Occurred()) ? -1 : 0;
}

static inline int sp_attr_long(PyObject *obj, PyObject *name, long *v) {
    PyObject *x = PyObject_GetAttr(obj, name);
    if (!x) {
        return -1;
    }
    int rc = sp_long(x, v);
    Py_DECREF(x);
    return rc;
}

/* where seat ``s``'s block starts: ``base[s]``, Python's tuple indexing (a negative index from the end) */
static inline int sp_base(SPWork *w, long s, long *b) {
    long q = s < 0 ? s + w->n : s;
    if (q < 0 || q >= w->n) {
        PyErr_SetString(PyExc_IndexError, "tuple index out of range");
        return -1;
    }
    *b = w->base[q];
    return 0;
}

/* a number as Python's float of it */
static inline int sp_number(PyObject *item, double *v) {
    if (PyLong_CheckExact(item)) {
        *v = PyLong_AsDouble(item);
    } else {
        *v = PyFloat_AsDouble(item);
    }
    return (*v == -1.0 && PyErr_Occurred()) ? -1 : 0;
}

static inline int sp_equal(PyObject *a, int word) {
    return PyObject_RichCompareBool(a, SP.words[word], Py_EQ);
}

/* a dict's index of ``key`` (KeyError as the reference's lookup) */
static inline int sp_lookup(PyObject *dict, PyObject *key, long *v) {
    PyObject *x = PyDict_GetItemWithError(dict, key);
    if (!x) {
        if (!PyErr_Occurred()) {
            PyErr_SetObject(PyExc_KeyError, key);
        }
        return -1;
    }
    return sp_long(x, v);
}

static int sp_gather(SPWork *w, PyObject *state);

PyDoc_STRVAR(spytails_doc,
"spytails(out, copy, state, seat)\n\n"
"Spytails' observation of ``seat`` into ``out`` (float32 zeros of the layout's size): what\n"
"``envs/spytails/codec.py``'s ``_gather`` gathers from ``state``, written as ``encode_python`` writes it (each\n"
"card copy adds ``copy``, then the ones, then the scalars, then the vector clipped at 1).");

static PyObject *spytails(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "spytails(out, copy, state, seat) takes 4 arguments");
        return NULL;
    }
    if (!SP.ready) {
        PyErr_SetString(PyExc_RuntimeError, "spytails_layout() was not called");
        return NULL;
    }
    Floats out;
    if (floats_get(args[0], &out, 1) < 0) {
        return NULL;
    }
    PyObject *result = NULL;
    SPWork *w = &sp_work;
    double copy;
    if (out.size != SPI(SIZE)) {
        PyErr_Format(PyExc_ValueError, "out has %zd values, the layout %ld", out.size, SPI(SIZE));
        goto done;
    }
    if (number(args[1], &copy) < 0 || sp_long(args[3], &w->seat) < 0) {
        goto done;
    }
    w->out = out.data;
    w->size = out.size;
    w->copy = (float)copy;
    w->hot = 0;
    w->values = 0;
    if (sp_gather(w, args[2]) < 0) {
        goto done;
    }
    for (Py_ssize_t k = 0; k < w->hot; k++) { /* numpy's put: a negative position from the end */
        long p = w->hot_at[k];
        long q = p < 0 ? p + (long)w->size : p;
        if (q < 0 || q >= w->size) {
            PyErr_Format(PyExc_IndexError, "index %ld is out of bounds for an observation of %zd values", p, w->size);
            goto done;
        }
        w->out[q] = 1.0f;
    }
    for (Py_ssize_t k = 0; k < w->values; k++) {
        w->out[w->value_at[k]] = (float)w->value[k];
    }
    clip(w->out, w->size);
    result = Py_NewRef(Py_None);
done:
    PyBuffer_Release(&out.view);
    return result;
}

/* ``_gather`` of envs/spytails/codec.py, line for line; the card piles are counted into ``out`` at once */
static int sp_gather(SPWork *w, PyObject *state) {
    int rc = -1;
    long n, seat = w->seat;
    PyObject *hands = NULL, *decks = NULL, *discards = NULL, *known = NULL, *pool = NULL, *seq = NULL,
             *trick = NULL, *pending = NULL, *x = NULL, *phase = NULL, *teams = NULL, *special = NULL;
    PyObject *cols[12] = {NULL};
    if (sp_attr_long(state, SP.names[SPN_num_players], &n) < 0) {
        return -1;
    }
    if (n < 2 || n > SPI(MAX_PLAYERS) || n > 8 || seat < 0 || seat >= n) { /* _SEATINGS[n, seat] */
        PyObject *key = Py_BuildValue("(ll)", n, seat);
        if (key) {
            PyErr_SetObject(PyExc_KeyError, key);
            Py_DECREF(key);
        }
        return -1;
    }
    w->n = n;
    for (long s = 0; s < n; s++) {
        w->base[s] = modulo(s - seat, n) * SPI(SEAT);
    }
    for (long rel = 0; rel < n; rel++) {
        if (sp_one(w, rel * SPI(SEAT) + SPI(PRESENT)) < 0) {
            return -1;
        }
    }
    /* the piles every seat shows: its own hand and deck, or what the others know of theirs */
    if (!(hands = SPA(state, hands)) || !(decks = SPA(state, decks)) || !(discards = SPA(state, discards)) ||
        !(known = SPA(state, known)) || !(pool = SPA(state, pool))) {
        goto done;
    }
    for (long s = 0; s < n; s++) {
        long b = w->base[s];
        if (s == seat) {
            if (sp_pile_of(w, b + SPI(HAND), hands, s) < 0 || sp_pile_of(w, b + SPI(HIDDEN), decks, s) < 0) {
                goto done;
            }
        } else if (sp_pile_of(w, b + SPI(HAND), known, s) < 0 || sp_pile_of(w, b + SPI(HIDDEN), pool, s) < 0) {
            goto done;
        }
        if (sp_pile_of(w, b + SPI(DISCARD), discards, s) < 0) {
            goto done;
        }
    }
    /* each seat's cards played this round: the finished operations' */
    if (!(seq = SPA(state, round_ops))) {
        goto done;
    }
    {
        PyObject *ops = PySequence_Fast(seq, "round_ops must be a sequence");
        if (!ops) {
            goto done;
        }
        Py_ssize_t m = PySequence_Fast_GET_SIZE(ops);
        for (Py_ssize_t k = 0; k < m; k++) {
            PyObject *op = PySequence_Fast(PySequence_Fast_ITEMS(ops)[k], "an operation must be a sequence");
            if (!op || PySequence_Fast_GET_SIZE(op) != 2) {
                if (op) {
                    PyErr_SetString(PyExc_ValueError, "an operation unpacks to (winner, trick)");
                    Py_DECREF(op);
                }
                Py_DECREF(ops);
                goto done;
            }
            PyObject *plays = PySequence_Fast(PySequence_Fast_ITEMS(op)[1], "a trick must be a sequence");
            Py_DECREF(op);
            if (!plays) {
                Py_DECREF(ops);
                goto done;
            }
            Py_ssize_t p = PySequence_Fast_GET_SIZE(plays);
            for (Py_ssize_t j = 0; j < p; j++) {
                PyObject *play = PySequence_Fast(PySequence_Fast_ITEMS(plays)[j], "a play must be a sequence");
                long s, c, b;
                int bad = !play;
                if (!bad && PySequence_Fast_GET_SIZE(play) != 4) {
                    PyErr_SetString(PyExc_ValueError, "a play unpacks to (seat, card, low, mimic)");
                    bad = 1;
                }
                bad = bad || sp_long(PySequence_Fast_ITEMS(play)[0], &s) < 0 ||
                      sp_long(PySequence_Fast_ITEMS(play)[1], &c) < 0;
                if (!bad && c >= 0) {
                    bad = sp_base(w, s, &b) < 0 || sp_card(w, b + SPI(PLAYED), PySequence_Fast_ITEMS(play)[1]) < 0;
                }
                Py_XDECREF(play);
                if (bad) {
                    Py_DECREF(plays);
                    Py_DECREF(ops);
                    goto done;
                }
            }
            Py_DECREF(plays);
        }
        Py_DECREF(ops);
    }
    /* this operation's plays */
    if (!(x = SPA(state, trick))) {
        goto done;
    }
    trick = PySequence_Fast(x, "trick must be a sequence");
    Py_CLEAR(x);
    if (!trick) {
        goto done;
    }
    long led = SPI(NO_SUIT), led_found = 0, led_bad = 0; /* state.led_suit(), its IndexError raised if it is read */
    for (Py_ssize_t place = 0; place < PySequence_Fast_GET_SIZE(trick); place++) {
        PyObject *play = PySequence_Fast(PySequence_Fast_ITEMS(trick)[place], "a play must be a sequence");
        if (!play) {
            goto done;
        }
        PyObject **f = PySequence_Fast_ITEMS(play);
        long s, c, b;
        int low = 0, mimic = 0, bad = 0;
        if (PySequence_Fast_GET_SIZE(play) != 4) {
            PyErr_SetString(PyExc_ValueError, "a play unpacks to (seat, card, low, mimic)");
            bad = 1;
        }
        bad = bad || sp_long(f[0], &s) < 0 || sp_long(f[1], &c) < 0 || sp_base(w, s, &b) < 0 ||
              sp_one(w, b + SPI(OP_ORDER) + (long)place) < 0;
        if (!bad && c == SPI(GHOST_TOKEN)) {
            bad = sp_one(w, b + SPI(OP_FLAGS) + 2) < 0;
        } else if (!bad) {
            bad = sp_card(w, b + SPI(PLAYED), f[1]) < 0 || sp_one(w, b + SPI(OP_CARD) + c) < 0 ||
                  (low = PyObject_IsTrue(f[2])) < 0 || (low && sp_one(w, b + SPI(OP_FLAGS)) < 0) ||
                  (mimic = PyObject_IsTrue(f[3])) < 0 || (mimic && sp_one(w, b + SPI(OP_FLAGS) + 1) < 0);
        }
        if (!bad && !led_found && c >= 0) {
            if (c >= SP.cards) {
                led_found = led_bad = 1;
            } else if (SP.card_suit[c] != SPI(NO_SUIT)) {
                led_found = 1;
                led = mimic ? SPI(INTIMIDATION) : SP.card_suit[c];
            }
        }
        Py_DECREF(play);
        if (bad) {
            goto done;
        }
    }
    /* the open decision */
    if (!(pending = SPA(state, pending))) {
        goto done;
    }
    int is_pending = PyObject_IsTrue(pending);
    if (is_pending < 0) {
        goto done;
    }
    int selecting = 0;
    if (is_pending) {
        long acting, b, d;
        PyObject *kind = PySequence_GetItem(pending, 0);
        if (!kind) {
            goto done;
        }
        if (!(x = PySequence_GetItem(pending, 1)) || sp_long(x, &acting) < 0 || sp_base(w, acting, &b) < 0 ||
            sp_one(w, b + SPI(TO_ACT)) < 0 || sp_lookup(SP.decisions, kind, &d) < 0 ||
            sp_one(w, SPI(DECISION) + d) < 0) {
            Py_DECREF(kind);
            goto done;
        }
        Py_CLEAR(x);
        selecting = acting == seat ? sp_equal(kind, SPW_REGROUP) : 0;
        Py_DECREF(kind);
        if (selecting < 0) {
            goto done;
        }
    }
    /* the shared piles */
    long special_known, b;
    if (sp_attr_long(state, SP.names[SPN_special_known], &special_known) < 0 || !(x = SPA(state, display)) ||
        sp_pile(w, SPI(DISPLAY), x) < 0) {
        goto done;
    }
    Py_CLEAR(x);
    if (!(x = SPA(state, special_deck))) {
        goto done;
    }
    special = PySequence_Fast(x, "special_deck must be a sequence");
    Py_CLEAR(x);
    if (!special) {
        goto done;
    }
    Py_ssize_t special_len = PySequence_Fast_GET_SIZE(special);
    {
        long cut = special_known < 0 ? special_known + (long)special_len : special_known; /* Python's slice */
        cut = cut < 0 ? 0 : cut > special_len ? (long)special_len : cut;
        for (Py_ssize_t k = 0; k < special_len; k++) {
            if (sp_card(w, k >= cut ? SPI(UNSEEN) : SPI(KNOWN), PySequence_Fast_ITEMS(special)[k]) < 0) {
                goto done;
            }
        }
    }
    if (selecting && (!(x = SPA(state, selection)) || sp_pile(w, SPI(SELECTION), x) < 0)) {
        goto done;
    }
    Py_CLEAR(x);
    long start, leader;
    if (sp_attr_long(state, SP.names[SPN_start], &start) < 0 || sp_base(w, start, &b) < 0 ||
        sp_one(w, b + SPI(START)) < 0 || !(phase = SPA(state, phase))) {
        goto done;
    }
    int operating = sp_equal(phase, SPW_OPERATIONS);
    if (operating < 0 || (operating && (sp_attr_long(state, SP.names[SPN_leader], &leader) < 0 ||
                                        sp_base(w, leader, &b) < 0 || sp_one(w, b + SPI(LEADER)) < 0))) {
        goto done;
    }
    if (!(teams = SPA(state, teams)) || !(x = SPA(state, revealed))) {
        goto done;
    }
    int revealed = PyObject_IsTrue(x);
    Py_CLEAR(x);
    int has_teams = PyObject_IsTrue(teams);
    if (revealed < 0 || has_teams < 0) {
        goto done;
    }
    PyObject *team = NULL; /* teams[seat], borrowed from ``x`` */
    if (has_teams) {
        if (!(x = PySequence_GetItem(teams, seat))) {
            goto done;
        }
        team = x;
    }
    /* every seat's facts: zip(..., strict=True) of the per-seat lists */
    static const int col_name[12] = {SPN_characters, SPN_stakes, SPN_bids, SPN_influence, SPN_leverage, SPN_won,
                                     SPN_ghost_used, SPN_regroup_used, SPN_power_used, SPN_voids, SPN_hands,
                                     SPN_decks};
    enum { C_CHARACTER, C_STAKE, C_BID, C_INFLUENCE, C_LEVERAGE, C_WON, C_GHOST, C_REGROUP, C_POWER, C_VOIDS,
           C_HAND, C_DECK };
    for (int k = 0; k < 12; k++) {
        PyObject *attr = PyObject_GetAttr(state, SP.names[col_name[k]]);
        if (!attr) {
            goto done;
        }
        cols[k] = PySequence_Fast(attr, "a per-seat attribute must be a sequence");
        Py_DECREF(attr);
        if (!cols[k]) {
            goto done;
        }
        if (PySequence_Fast_GET_SIZE(cols[k]) != n) {
            PyErr_SetString(PyExc_ValueError, "zip() arguments have different lengths");
            goto done;
        }
    }
    for (long s = 0; s < n; s++) {
        PyObject *item[12];
        for (int k = 0; k < 12; k++) {
            item[k] = PySequence_Fast_ITEMS(cols[k])[s];
        }
        long character, bid, won;
        double stake, influence, leverage;
        b = w->base[s];
        if (sp_long(item[C_WON], &won) < 0 || sp_one(w, b + SPI(WON) + won) < 0 ||
            sp_long(item[C_CHARACTER], &character) < 0 ||
            (character >= 0 && sp_one(w, b + SPI(CHARACTER) + character) < 0)) {
            goto done;
        }
        if (has_teams) {
            PyObject *mine = PySequence_GetItem(teams, s);
            int same = mine ? PyObject_RichCompareBool(mine, team, Py_EQ) : -1;
            Py_XDECREF(mine);
            if (same < 0 || (same && sp_one(w, b + SPI(TEAMMATE)) < 0)) {
                goto done;
            }
        }
        if (sp_number(item[C_STAKE], &stake) < 0) {
            goto done;
        }
        if (stake >= 0) {
            if (sp_one(w, b + SPI(MADE)) < 0) {
                goto done;
            }
        } else {
            stake = 0;
        }
        if (sp_number(item[C_INFLUENCE], &influence) < 0) {
            goto done;
        }
        if (revealed || s == seat) {
            if (sp_value(w, b + SPI(INFLUENCE), influence / SP.scale[SPS_INFLUENCE]) < 0 ||
                sp_value(w, b + SPI(STAKE), stake / SP.scale[SPS_STAKE]) < 0 || sp_long(item[C_BID], &bid) < 0 ||
                (bid >= 0 && sp_one(w, b + SPI(BID) + bid) < 0)) {
                goto done;
            }
        } else if (sp_value(w, b + SPI(INFLUENCE), (influence + stake) / SP.scale[SPS_INFLUENCE]) < 0 ||
                   sp_value(w, b + SPI(STAKE), 0.0) < 0) {
            goto done;
        }
        Py_ssize_t hand_len = PyObject_Length(item[C_HAND]), deck_len = PyObject_Length(item[C_DECK]);
        if (sp_number(item[C_LEVERAGE], &leverage) < 0 || hand_len < 0 || deck_len < 0 ||
            sp_value(w, b + SPI(LEVERAGE), leverage / SP.scale[SPS_LEVERAGE]) < 0 ||
            sp_value(w, b + SPI(HAND_SIZE), (double)hand_len / SP.scale[SPS_HAND_SIZE]) < 0 ||
            sp_value(w, b + SPI(DECK_SIZE), (double)deck_len / SP.scale[SPS_DECK_SIZE]) < 0) {
            goto done;
        }
        for (int k = 0; k < 3; k++) {
            int used = PyObject_IsTrue(item[C_GHOST + k]);
            if (used < 0 || (used && sp_one(w, b + SPI(TOKENS) + k) < 0)) {
                goto done;
            }
        }
        PyObject *voids = PySequence_Fast(item[C_VOIDS], "voids must be sequences");
        if (!voids) {
            goto done;
        }
        for (Py_ssize_t k = 0; k < PySequence_Fast_GET_SIZE(voids); k++) {
            long suit;
            if (sp_long(PySequence_Fast_ITEMS(voids)[k], &suit) < 0 || sp_one(w, b + SPI(VOIDS) + suit) < 0) {
                Py_DECREF(voids);
                goto done;
            }
        }
        Py_DECREF(voids);
    }
    double supply;
    PyObject *supply_obj = SPA(state, leverage_supply);
    if (!supply_obj) {
        goto done;
    }
    int bad_supply = sp_number(supply_obj, &supply) < 0;
    Py_DECREF(supply_obj);
    if (bad_supply || sp_value(w, SPI(SPECIAL_SIZE), (double)special_len / SP.scale[SPS_SPECIAL_SIZE]) < 0 ||
        sp_value(w, SPI(SUPPLY), supply / SP.scale[SPS_SUPPLY]) < 0) {
        goto done;
    }
    /* the shared one-hots */
    long round, last_round, k;
    if (sp_attr_long(state, SP.names[SPN_round], &round) < 0 ||
        sp_attr_long(state, SP.names[SPN_last_round], &last_round) < 0 ||
        sp_one(w, SPI(ROUND) + (round < SPI(MAX_ROUNDS) - 1 ? round : SPI(MAX_ROUNDS) - 1)) < 0 ||
        (round == last_round && sp_one(w, SPI(FINAL)) < 0)) {
        goto done;
    }
    PyObject *index = PyDict_GetItemWithError(SP.phases, phase);
    if ((!index && PyErr_Occurred()) || (index && (sp_long(index, &k) < 0 || sp_one(w, SPI(PHASE) + k) < 0))) {
        goto done;
    }
    long operation = 0;
    if (operating && (sp_attr_long(state, SP.names[SPN_operation], &operation) < 0)) {
        goto done;
    }
    if (operating && operation < SPI(OPERATIONS)) {
        if (sp_one(w, SPI(OPERATION) + operation) < 0) {
            goto done;
        }
        if (led_bad) {
            PyErr_SetString(PyExc_IndexError, "tuple index out of range");
            goto done;
        }
        if (led != SPI(NO_SUIT) && sp_one(w, SPI(LED) + led) < 0) {
            goto done;
        }
    } else {
        int forecast = sp_equal(phase, SPW_FORECAST);
        if (forecast < 0) {
            goto done;
        }
        if (forecast) {
            if (sp_attr_long(state, SP.names[SPN_forecast_pass], &k) < 0 || sp_one(w, SPI(PASS) + k) < 0) {
                goto done;
            }
        } else {
            int debriefing = sp_equal(phase, SPW_DEBRIEFING);
            if (debriefing < 0) {
                goto done;
            }
            if (debriefing) {
                PyObject *step = SPA(state, debrief_step);
                int reinforcing = step ? sp_equal(step, SPW_REINFORCE) : -1;
                Py_XDECREF(step);
                if (reinforcing < 0 ||
                    (reinforcing && (sp_attr_long(state, SP.names[SPN_reinforce_turn], &k) < 0 ||
                                     (k < 2 * n && sp_one(w, SPI(REINFORCE) + k) < 0)))) {
                    goto done;
                }
            }
        }
    }
    PyObject *armed = SPA(state, armed);
    if (!armed) {
        goto done;
    }
    int is_armed = PyObject_IsTrue(armed);
    int bad_armed = is_armed < 0 || (is_armed && (sp_lookup(SP.armed, armed, &k) < 0 || sp_one(w, SPI(ARMED) + k) < 0));
    Py_DECREF(armed);
    if (bad_armed) {
        goto done;
    }
    PyObject *row = SPA(state, row);
    PyObject *row_fast = row ? PySequence_Fast(row, "row must be a sequence") : NULL;
    Py_XDECREF(row);
    if (!row_fast) {
        goto done;
    }
    for (Py_ssize_t slot = 0; slot < PySequence_Fast_GET_SIZE(row_fast); slot++) {
        long c;
        if (sp_long(PySequence_Fast_ITEMS(row_fast)[slot], &c) < 0 ||
            sp_one(w, SPI(ROW) + (long)slot * SPI(NUM_ROW_CARDS) + c) < 0) {
            Py_DECREF(row_fast);
            goto done;
        }
    }
    Py_DECREF(row_fast);
    static const int option_name[2] = {SPN_mode, SPN_forecast_mode};
    static const int option_word[2] = {SPW_PARTNERSHIP, SPW_SIMULTANEOUS};
    for (int o = 0; o < 2; o++) {
        PyObject *option = PyObject_GetAttr(state, SP.names[option_name[o]]);
        int on = option ? sp_equal(option, option_word[o]) : -1;
        Py_XDECREF(option);
        if (on < 0 || (on && sp_one(w, SPI(OPTIONS) + o) < 0)) {
            goto done;
        }
    }
    if (revealed && sp_one(w, SPI(REVEALED)) < 0) {
        goto done;
    }
    rc = 0;
done:
    Py_XDECREF(hands);
    Py_XDECREF(decks);
    Py_XDECREF(discards);
    Py_XDECREF(known);
    Py_XDECREF(pool);
    Py_XDECREF(seq);
    Py_XDECREF(trick);
    Py_XDECREF(pending);
    Py_XDECREF(x);
    Py_XDECREF(phase);
    Py_XDECREF(teams);
    Py_XDECREF(special);
    for (int k = 0; k < 12; k++) {
        Py_XDECREF(cols[k]);
    }
    return rc;
}

/* ---- module --------------------------------------------------------------------------------------------- */

/* ---- bounded draws from a numpy bit generator ---------------------------------------------------------- */

/* numpy's bitgen_t (numpy/random/bitgen.h, public and unchanged since numpy 1.17), declared here so that the build
 * needs no numpy headers; a BitGenerator hands it out in its "BitGenerator" capsule. */
typedef struct {
    void *state;
    uint64_t (*next_uint64)(void *st);
    uint32_t (*next_uint32)(void *st);
    double (*next_double)(void *st);
    uint64_t (*next_raw)(void *st);
} BitGen;

/* numpy's buffered_bounded_lemire_uint32 (distributions.c): Lemire's multiply-and-reject on one 32-bit output per
 * try.  Generator.integers(high) takes this path for every int64 bound below 2**32 (random_bounded_uint64_fill),
 * so the same outputs give the same numbers and leave the generator where numpy leaves it. */
static inline uint32_t lemire_uint32(BitGen *bitgen, uint32_t rng) {
    const uint32_t rng_excl = rng + 1;
    uint64_t m = (uint64_t)bitgen->next_uint32(bitgen->state) * rng_excl;
    uint32_t leftover = (uint32_t)m;
    if (leftover < rng_excl) {
        const uint32_t threshold = (UINT32_MAX - rng) % rng_excl;
        while (leftover < threshold) {
            m = (uint64_t)bitgen->next_uint32(bitgen->state) * rng_excl;
            leftover = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

PyDoc_STRVAR(bounded_doc,
"bounded(bit_generator, high, count) -> list\n\n"
"``count`` integers in 0..high-1 (2 <= high <= 2**32), as ``[int(Generator(bit_generator).integers(high)) for _ in\n"
"range(count)]`` gives them, from the same outputs: a dealt die costs one C call instead of numpy's argument\n"
"handling.  The bit generator's lock is held while drawing, as numpy holds it.");

static PyObject *bounded(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "bounded takes 3 arguments");
        return NULL;
    }
    long long high = PyLong_AsLongLong(args[1]);
    Py_ssize_t count = PyLong_AsSsize_t(args[2]);
    if (PyErr_Occurred()) {
        return NULL;
    }
    if (high < 2 || high > 4294967296LL || count < 0) {
        PyErr_SetString(PyExc_ValueError, "bounded needs 2 <= high <= 2**32 and count >= 0");
        return NULL;
    }
    static PyObject *capsule_name, *lock_name, *acquire_name, *release_name;
    if (capsule_name == NULL) {  /* interned once: these lookups are most of a two-dice deal */
        capsule_name = PyUnicode_InternFromString("capsule");
        lock_name = PyUnicode_InternFromString("lock");
        acquire_name = PyUnicode_InternFromString("acquire");
        release_name = PyUnicode_InternFromString("release");
        if (!capsule_name || !lock_name || !acquire_name || !release_name) {
            return NULL;
        }
    }
    PyObject *capsule = PyObject_GetAttr(args[0], capsule_name);
    if (capsule == NULL) {
        return NULL;
    }
    BitGen *bitgen = (BitGen *)PyCapsule_GetPointer(capsule, "BitGenerator");
    PyObject *lock = bitgen ? PyObject_GetAttr(args[0], lock_name) : NULL;
    PyObject *out = lock ? PyList_New(count) : NULL;
    PyObject *held = out ? PyObject_CallMethodNoArgs(lock, acquire_name) : NULL;
    if (held != NULL) {
        const uint32_t rng = (uint32_t)(high - 1);
        int failed = 0;
        for (Py_ssize_t i = 0; i < count; i++) {
            /* high 2**32 is numpy's full-range case: one raw 32-bit output */
            uint32_t v = rng == UINT32_MAX ? bitgen->next_uint32(bitgen->state) : lemire_uint32(bitgen, rng);
            PyObject *item = failed ? NULL : PyLong_FromUnsignedLong(v);
            if (item == NULL) {  /* out of memory: the list is dropped once the lock is released */
                item = Py_NewRef(Py_None);
                failed = 1;
            }
            PyList_SET_ITEM(out, i, item);
        }
        PyObject *released = PyObject_CallMethodNoArgs(lock, release_name);
        if (released == NULL || failed) {
            Py_CLEAR(out);
        }
        Py_XDECREF(released);
        Py_DECREF(held);
    } else {
        Py_CLEAR(out);
    }
    Py_XDECREF(lock);
    Py_DECREF(capsule);
    return out;
}

static PyMethodDef methods[] = {
    {"bounded", (PyCFunction)(void (*)(void))bounded, METH_FASTCALL, bounded_doc},
    {"scaled", (PyCFunction)(void (*)(void))scaled, METH_FASTCALL, scaled_doc},
    {"clipped", (PyCFunction)(void (*)(void))clipped, METH_FASTCALL, clipped_doc},
    {"piles", (PyCFunction)(void (*)(void))piles, METH_FASTCALL, piles_doc},
    {"liars_dice_layout", (PyCFunction)(void (*)(void))liars_dice_layout, METH_FASTCALL, liars_dice_layout_doc},
    {"liars_dice", (PyCFunction)(void (*)(void))liars_dice, METH_FASTCALL, liars_dice_doc},
    {"libertalia_layout", (PyCFunction)(void (*)(void))libertalia_layout, METH_FASTCALL, libertalia_layout_doc},
    {"libertalia", (PyCFunction)(void (*)(void))libertalia, METH_FASTCALL, libertalia_doc},
    {"lying_pirates_layout", (PyCFunction)(void (*)(void))lying_pirates_layout, METH_FASTCALL,
     lying_pirates_layout_doc},
    {"lying_pirates", (PyCFunction)(void (*)(void))lying_pirates, METH_FASTCALL, lying_pirates_doc},
    {"spytails_layout", (PyCFunction)(void (*)(void))spytails_layout, METH_FASTCALL, spytails_layout_doc},
    {"spytails", (PyCFunction)(void (*)(void))spytails, METH_FASTCALL, spytails_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_speedups",
    "Compiled kernels of the observation encoders; the Python encoders are the reference (speedups.py).", -1,
    methods,
};

PyMODINIT_FUNC PyInit__speedups(void) { return PyModule_Create(&module); }
