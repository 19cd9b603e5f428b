#!/usr/bin/python3
"""attention-lab-cli's language model commands on the shipped model (web/models/fortunes.alm).

usage: lm_cli_test.py CLI CASE_DIR MODEL [CORPUS_DIR] [--no-held-out]

- --tokenize: the pieces concatenate back to the text (any UTF-8, and bytes of a broken character);
- --lm-eval: shapes, each pattern row a distribution over j <= i, the top-10 sorted and equal to the
  softmax of the last logits row; the same numbers from the model's JSON (--model-json) bit for bit;
- --lm-generate: the same seed gives the same tokens, another seed other tokens, temperature 0 is the
  argmax of --lm-eval at every step, every token's p_model is --lm-eval's softmax;
- the recorded held-out figures: --lm-held-out on the installed corpus gives the file's
  "held_out_loss" and "held_out_bpb" exactly (the corpus package must be the one trained on: the file
  records its texts' FNV-1a hashes, checked too);
- bad input: a corrupt or truncated file, a text longer than n_ctx, bad sampling settings, unknown
  ablations, an --override mask with a cell other than 0 or 1: exit 2 naming the field.
--no-held-out (the sanitizer build, where the whole held-out text takes minutes): everything but the
held-out recomputation, which the Release build does.
Exit 0 on success, 1 on a failure.
"""
import json
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cli_lib import Tally, check_refusals, run, run_json  # noqa: E402

TEXT = "The quick brown fox said: \"It's 42 o'clock!\" — café, naïve; 日本."


def softmax(row):
    m = max(row)
    e = [math.exp(x - m) for x in row]
    s = sum(e)
    return [x / s for x in e]


def main():
    if len(sys.argv) < 4:
        print(__doc__)
        return 2
    args = [a for a in sys.argv[1:] if a != "--no-held-out"]
    held_out = "--no-held-out" not in sys.argv
    cli, case_dir, model = args[0], args[1], args[2]
    corpus = args[3] if len(args) > 3 else "/usr/share/games/fortunes"
    os.makedirs(case_dir, exist_ok=True)
    t = Tally("FAIL lm_cli: ")
    checks = [0]

    def check(ok, what):
        checks[0] += 1
        if not ok:
            t.fail(what)
    t.check = check

    tok = run_json(cli, ["--tokenize", model, "--text", TEXT, "--compact"])
    t.check(len(tok["tokens"]) == len(tok["pieces"]) == len(tok["bytes"]), "tokenize: one piece and byte count per token")
    t.check(sum(tok["bytes"]) == len(TEXT.encode()), f"tokenize: the tokens' bytes add up to the text's ({sum(tok['bytes'])})")
    ascii_text = "It's 42 o'clock, said the fox."
    plain = run_json(cli, ["--tokenize", model, "--text", ascii_text, "--compact"])
    t.check("".join(plain["pieces"]) == ascii_text, "tokenize: the pieces of an ASCII text spell it")
    broken = run_json(cli, ["--tokenize", model, "--text", "é"[:1] + "x", "--compact"])
    t.check(all(p.isprintable() for p in broken["pieces"]), "tokenize: a piece of a broken character is shown printable")

    ev = run_json(cli, ["--lm-eval", model, "--text", TEXT, "--compact"])
    n, V = len(ev["tokens"]), len(ev["logits"][0])
    t.check(ev["tokens"] == tok["tokens"], "lm-eval reads the text as --tokenize does")
    t.check(len(ev["logits"]) == n and len(ev["per_token_loss"]) == n - 1, f"lm-eval: {n} rows of logits, {n - 1} losses")
    t.check(abs(sum(ev["per_token_loss"]) / (n - 1) - ev["loss"]) < 1e-12, "lm-eval: loss = mean of per_token_loss")
    ok_rows = all(abs(sum(row[: i + 1]) - 1) < 1e-12 and all(x == 0 for x in row[i + 1:])
                  for layer in ev["weights"] for head in layer for i, row in enumerate(head))
    t.check(ok_rows, "lm-eval: every pattern row sums to 1 over j <= i and is 0 above the diagonal")
    p_last = softmax(ev["logits"][-1])
    top = ev["top"]
    t.check(len(top) == 10 and all(top[k]["p"] >= top[k + 1]["p"] for k in range(9)), "lm-eval: top-10, most probable first")
    t.check(all(abs(e["p"] - p_last[e["token"]]) < 1e-12 for e in top), "lm-eval: top's p = softmax of the last logits row")
    t.check(max(p_last) == top[0]["p"], "lm-eval: top[0] is the argmax")
    for i, target in enumerate(ev["tokens"][1:]):
        p = softmax(ev["logits"][i])[target]
        if abs(-math.log(p) - ev["per_token_loss"][i]) > 1e-9:
            t.fail(f"lm-eval: per_token_loss[{i}] is not -log softmax")
            break
    as_json = os.path.join(case_dir, "model.json")
    code, out, err = run(cli, ["--model-json", model, "--compact"], timeout=120)
    t.check(code == 0, f"model-json: exit {code} {err[:200]}")
    with open(as_json, "w") as f:
        f.write(out)
    doc = json.loads(out)
    t.check("tokenizer" in doc and "vocab" not in doc and "training" in doc, "model-json: tokenizer and training included")
    ev_json = run_json(cli, ["--lm-eval", as_json, "--text", TEXT, "--compact"], timeout=120)
    t.check(ev_json["logits"] == ev["logits"] and ev_json["weights"] == ev["weights"],
            "lm-eval on --model-json's output: the same numbers bit for bit")
    ablated = run_json(cli, ["--lm-eval", model, "--text", TEXT, "--ablate", "1.0", "--compact"])
    t.check(ablated["ablated"] == ["1.0"] and ablated["logits"] != ev["logits"], "lm-eval --ablate 1.0 changes the logits")

    prompt = "The meaning of life is"
    gen = lambda *extra: run_json(cli, ["--lm-generate", model, "--prompt", prompt, "--tokens", "12", *extra, "--compact"])
    a, b, c = gen("--seed", "1", "--temperature", "0.8"), gen("--seed", "1", "--temperature", "0.8"), gen("--seed", "2", "--temperature", "0.8")
    t.check(a == b, "lm-generate: the same seed, the same tokens and probabilities")
    t.check(a["tokens"] != c["tokens"], "lm-generate: another seed, other tokens")
    greedy = gen("--seed", "1", "--temperature", "0")
    text = prompt
    for k, token in enumerate(greedy["tokens"]):
        step = run_json(cli, ["--lm-eval", model, "--text", text, "--compact"])
        row = step["logits"][-1]
        if token != row.index(max(row)) or abs(greedy["p_model"][k] - softmax(row)[token]) > 1e-12:
            t.fail(f"lm-generate --temperature 0: token {k} is not --lm-eval's argmax")
            break
        text = text + greedy["pieces"][k] if "<0x" not in greedy["pieces"][k] else None
        if text is None:
            break
    t.check(all(p == 1.0 for p in greedy["p"]), "lm-generate --temperature 0: each drawn with p = 1")

    rec = doc["training"]
    if held_out:
        held = run_json(cli, ["--lm-held-out", model, "--corpus", corpus, "--threads", "2", "--compact"], timeout=600)
        t.check(held["held_out_fnv1a64"] == rec["corpus"]["held_out_fnv1a64"],
                "the installed corpus's held-out text is the one recorded")
        t.check(held["held_out_loss"] == rec["held_out_loss"] and held["held_out_bpb"] == rec["held_out_bpb"],
                f"held-out loss {held['held_out_loss']} = recorded {rec['held_out_loss']} "
                f"(bits per byte {held['held_out_bpb']})")

    corrupt = os.path.join(case_dir, "corrupt.alm")
    truncated = os.path.join(case_dir, "truncated.alm")
    raw = open(model, "rb").read()
    open(truncated, "wb").write(raw[: len(raw) - 100])
    open(corrupt, "wb").write(raw[:8] + b"[" + raw[9:])
    long_text = "word " * 400
    half_mask = os.path.join(case_dir, "half_mask.json")  # "a b" is 2 tokens: a 2×2 mask with a 0.5
    with open(half_mask, "w") as f:
        json.dump([[1, 0], [0.5, 1]], f)
    refusals = [
        (["--lm-eval", model, "--text", "a b", "--override", f"0.0.mask={half_mask}"],
         "override 0.0.mask: [1][0] must be 0 (masked) or 1 (allowed)"),
        (["--lm-eval", model, "--text", "a b", "--override", f"0.0.masks={half_mask}"], "override: \"0.0.masks="),
        (["--lm-eval", truncated, "--text", "a"], "model file: truncated"),
        (["--lm-eval", corrupt, "--text", "a"], "model file: header"),
        (["--lm-eval", model, "--text", long_text], "text: "),
        (["--lm-eval", model, "--text", ""], "text: empty"),
        (["--lm-eval", model, "--text", "a", "--ablate", "7.0"], "ablate: 7.0 names no head"),
        (["--lm-generate", model, "--prompt", "a", "--tokens", "5", "--seed", "1", "--temperature", "-1"], "temperature:"),
        (["--lm-generate", model, "--prompt", "a", "--tokens", "5", "--seed", "1", "--top-p", "0"], "top_p:"),
        (["--lm-generate", model, "--prompt", "a", "--tokens", "500", "--seed", "1"], "tokens:"),
        (["--lm-eval", model, "--text", "a", "--lm-generate", model], "give one of"),
        (["--train-lm", "--corpus", corpus, "--steps", "10", "--seed", "1", "--vocab", "100", "--out", "x"], "vocab:"),
        (["--train-lm", "--corpus", corpus, "--steps", "10", "--seed", "1", "--d-mlp", "9999", "--out", "x"], "d_mlp:"),
        (["--lm-eval", "/nonexistent", "--text", "a"], "input: cannot open"),
    ]
    checks[0] += len(refusals)
    check_refusals(cli, refusals, t.fail)
    return t.done(f"lm_cli: {checks[0] - t.count} passed, {t.count} failed")


if __name__ == "__main__":
    sys.exit(main())
