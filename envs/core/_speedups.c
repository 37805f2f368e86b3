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
    PyObject *fast = PySequence_Fast(args[0], "ints must be a sequence");
    if (!fast) {
        return NULL;
    }
    if (PySequence_Fast_GET_SIZE(fast) != 13) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "13 ints expected");
        return NULL;
    }
    for (int i = 0; i < 13; i++) {
        *ints[i] = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
    }
    Py_DECREF(fast);
    if (PyErr_Occurred()) {
        return NULL;
    }
    fast = PySequence_Fast(args[1], "scales must be a sequence");
    if (!fast) {
        return NULL;
    }
    if (PySequence_Fast_GET_SIZE(fast) != 4) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "4 scales expected");
        return NULL;
    }
    for (int i = 0; i < 4; i++) {
        *scales[i] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(fast, i));
    }
    Py_DECREF(fast);
    if (PyErr_Occurred()) {
        return NULL;
    }
    long *tables[] = {LD.special_at, LD.seat_special_at};
    for (int t = 0; t < 2; t++) {
        fast = PySequence_Fast(args[2 + t], "per-kind positions must be a sequence");
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
    PyObject *fast = PySequence_Fast(args[0], "ints must be a sequence");
    if (!fast) {
        return NULL;
    }
    if (PySequence_Fast_GET_SIZE(fast) != 18) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "18 ints expected");
        return NULL;
    }
    for (int i = 0; i < 18; i++) {
        *ints[i] = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
    }
    Py_DECREF(fast);
    if (PyErr_Occurred()) {
        return NULL;
    }
    fast = PySequence_Fast(args[1], "scales must be a sequence");
    if (!fast) {
        return NULL;
    }
    if (PySequence_Fast_GET_SIZE(fast) != 6) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "6 scales expected");
        return NULL;
    }
    for (int i = 0; i < 6; i++) {
        *scales[i] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(fast, i));
    }
    Py_DECREF(fast);
    if (PyErr_Occurred()) {
        return NULL;
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
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_speedups",
    "Compiled kernels of the observation encoders; the Python encoders are the reference (speedups.py).", -1,
    methods,
};

PyMODINIT_FUNC PyInit__speedups(void) { return PyModule_Create(&module); }
