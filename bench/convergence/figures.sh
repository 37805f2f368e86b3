#!/usr/bin/env bash
# The write-up's figures and CSVs (docs/convergence/) from the runs under RUNS (default /work/runs-conv).
set -euo pipefail
RUNS=${RUNS:-/work/runs-conv}
T=$RUNS/tabular
D=docs/convergence
PY=${PY:-.venv/bin/python}
mkdir -p $D
cp $RUNS/batched-128-s0/diag.csv $D/batched-128-s0.csv
cp $T/summary.csv $D/tabular-summary.csv
for f in $T/*-s0.csv; do cp "$f" $D/; done
PLOT="$PY bench/convergence/plot.py"
$PLOT --panels expl,entropy,kl,adv,value,ev --out $D/batched.png --title "(i) batched trainer, 128-wide net" \
    batched-128=$D/batched-128-s0.csv
$PLOT --panels expl,entropy,kl,adv --out $D/ppo.png --title "(i)-(iii) PPO: batched vs tabular sampled vs tabular exact" \
    "(i) batched net=$D/batched-128-s0.csv" "(ii) table sampled lr1e-2=$D/ppo-sampled-s0.csv" \
    "(ii) table sampled lr1e-3=$D/ppo-sampled_lr1e-3_anneal-s0.csv" \
    "(iii) exact lr1e-3 uniform magnet kl0.2=$D/mmd-uniform-exact_lr1e-3-s0.csv" \
    "(iii) table exact lr1e-2=$D/ppo-exact-s0.csv" "(iii) exact lr1e-2 ent0=$D/ppo-exact-ent0-s0.csv" \
    "(iii) exact lr1e-3=$D/ppo-exact_lr1e-3-s0.csv" "(iii) exact lr1e-3 anneal=$D/ppo-exact_lr1e-3_anneal-s0.csv"
$PLOT --panels expl,entropy,kl --out $D/mmd.png --title "(iv) MMD: PPO-form (exact) and closed-form steps" \
    "PPO-form kl0.2 trail0.02=$D/mmd-trail-exact-s0.csv" "PPO-form kl0.2 uniform magnet=$D/mmd-uniform-exact-s0.csv" \
    "PPO-form kl0.2 copy/100=$D/mmd-copy100-exact-s0.csv" \
    "closed ent0.1 eta0.5=$D/closed-ent0.1-s0.csv" "closed ent0.1 eta0.05=$D/closed-ent0.1_eta0.05-s0.csv" \
    "closed ent0.05 eta0.05=$D/closed-ent0.05_eta0.05-s0.csv" "closed kl0.1 trail0.05 eta0.05=$D/closed-trail_eta0.05-s0.csv" \
    "closed kl0.2 copy/150 eta0.05=$D/closed-copy150-s0.csv" "closed kl0.2 trail0.002 eta0.05=$D/closed-trail-slow-s0.csv" \
    "PPO-form kl0.2 copy/150 lr1e-3=$D/mmd-trail-exact_copy150_lr1e-3-s0.csv"
