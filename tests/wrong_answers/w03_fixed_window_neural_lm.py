"""Delegations for notebook 03's exercises, their plausible wrong answers and other right answers."""

from tests.wrong_answers.spec import Delegation, Right, Wrong

NOTEBOOK = "03_fixed_window_neural_lm.ipynb"
_MC = "def make_contexts(ids: list[int], window: int, pad_id: int) -> tuple[torch.Tensor, torch.Tensor]:\n"
_PC = "def mlp_parameter_count(vocab_size: int, window: int, d_embed: int, d_hidden: int) -> int:\n"
_CT = "def closest_tokens(C: torch.Tensor, index: int, k: int) -> list[int]:\n"
_UNIT = "    unit = C / C.norm(dim=1, keepdim=True)\n"
_PADDED = "    padded = torch.tensor([pad_id] * window + list(ids))  # (n+N,)\n"
_RW = "def train_recall_window(task: RecallTask, batches, max_steps: int) -> WindowMLPLM:\n"


def _recall(window: str, d_embed: int, d_hidden: int, lr: float, steps: str = "max_steps") -> str:
    """A train_recall_window solution with the given window expression, sizes, learning rate and number of batches."""
    return (_RW + f"    model = WindowMLPLM(WindowMLPConfig(task.vocab_size, window={window}, d_embed={d_embed}, d_hidden={d_hidden}))\n"
            f"    optimizer = torch.optim.AdamW(model.parameters(), lr={lr})\n"
            f"    for _ in range({steps}):\n"
            "        x, y = batches()\n        optimizer.zero_grad()\n        model.loss(x, y).backward()\n        optimizer.step()\n"
            "    return model")
WRONG = {
    "ex1_make_contexts": [
        Wrong("as_given", "make_contexts = colleague_contexts", visible=r"reads its target or a later token"),
        Wrong("shifted_too_far", _MC + _PADDED + "    return padded.unfold(0, window, 1)[:-2], torch.tensor(ids[1:])",
              visible=r"the newest token it may read, so it must hold it"),
        Wrong("targets_shifted_instead", _MC + _PADDED + "    X = padded.unfold(0, window, 1)[2:]\n"
              "    return X, torch.tensor(ids[2:] + [pad_id])", visible=r"Y\[i\] must be ids\[i\+1\]"),
        Wrong("padded_on_the_right", _MC + "    padded = torch.tensor(list(ids) + [pad_id] * (window - 1))\n"
              "    return padded.unfold(0, window, 1)[: len(ids) - 1], torch.tensor(ids[1:])",
              visible=r"reads its target or a later token"),
        Wrong("window_one_token_short", _MC + _PADDED + "    return padded.unfold(0, window, 1)[1:-1, 1:], torch.tensor(ids[1:])",
              visible=r"X for '\.emma\.' with window 3"),
        Wrong("padded_with_the_first_token", _MC + "    padded = torch.tensor([ids[0]] * (window - 1) + list(ids))\n"
              "    return padded.unfold(0, window, 1)[:-1], torch.tensor(ids[1:])",
              visible=r"must hold pad_id, on the left"),
        Wrong("float_ids", _MC + _PADDED + "    return padded.unfold(0, window, 1)[1:-1].float(), torch.tensor(ids[1:])",
              visible=r"torch\.long"),
        Wrong("window_fixed_at_3", _MC + "    padded = torch.tensor([pad_id] * 2 + list(ids))\n"
              "    return padded.unfold(0, 3, 1)[:-1], torch.tensor(ids[1:])"),  # the checks use N = 3: fails only hidden
    ],
    "ex2_mlp_parameter_count": [
        Wrong("no_biases", _PC + "    return vocab_size * d_embed + window * d_embed * d_hidden + d_hidden * vocab_size",
              visible=r"expected 11897 parameters"),
        Wrong("one_slice_for_all_positions", _PC + "    return vocab_size * d_embed + d_embed * d_hidden + d_hidden + d_hidden * vocab_size + vocab_size",
              visible=r"expected 11897 parameters"),
        Wrong("float_count", _PC + "    return float(vocab_size * d_embed + window * d_embed * d_hidden + d_hidden + d_hidden * vocab_size + vocab_size)",
              visible=r"int"),
        Wrong("no_embedding_table", _PC + "    return window * d_embed * d_hidden + d_hidden + d_hidden * vocab_size + vocab_size",
              visible=r"expected 11897 parameters"),
    ],
    "ex3_closest_tokens": [  # the colleague's two bugs, alone and together, and the other usual ones
        Wrong("axis_fixed_self_score_still_0", _CT + _UNIT + "    similarity = unit @ unit[index]\n    similarity[index] = 0\n"
              "    return similarity.topk(k).indices.tolist()", visible=r"never its own neighbour"),
        Wrong("self_fixed_columns_still_normalised", _CT + "    unit = C / C.norm(dim=0, keepdim=True)\n"
              "    similarity = unit @ unit[index]\n    similarity[index] = -float('inf')\n"
              "    return similarity.topk(k).indices.tolist()", visible=r"cosine similarity compares directions only"),
        Wrong("as_given", "closest_tokens = colleague_closest", visible=r"never its own neighbour"),
        Wrong("dot_product", _CT + "    similarity = C @ C[index]\n    similarity[index] = -float('inf')\n"
              "    return similarity.topk(k).indices.tolist()", visible=r"cosine similarity compares directions only"),
        Wrong("only_the_query_normalised", _CT + "    similarity = C @ (C[index] / C[index].norm())\n"
              "    similarity[index] = -float('inf')\n    return similarity.topk(k).indices.tolist()",
              visible=r"cosine similarity compares directions only"),
        Wrong("euclidean_distance", _CT + "    distance = (C - C[index]).norm(dim=1)\n    distance[index] = float('inf')\n"
              "    return (-distance).topk(k).indices.tolist()", visible=r"cosine similarity compares directions only"),
        Wrong("includes_itself", _CT + _UNIT + "    return (unit @ unit[index]).topk(k).indices.tolist()",
              visible=r"never its own neighbour"),
        Wrong("normalised_in_place", _CT + "    C /= C.norm(dim=1, keepdim=True)\n    similarity = C @ C[index]\n"
              "    similarity[index] = -float('inf')\n    return similarity.topk(k).indices.tolist()",
              visible=r"changed C in place"),
        Wrong("least_similar_first", _CT + _UNIT + "    similarity = unit @ unit[index]\n"
              "    similarity[index] = float('inf')\n    return (-similarity).topk(k).indices.tolist()",
              visible=r"expected \[3, 1, 2\]"),
        Wrong("ids_in_increasing_order", _CT + _UNIT + "    similarity = unit @ unit[index]\n"
              "    similarity[index] = -float('inf')\n    return sorted(similarity.topk(k).indices.tolist())",
              visible=r"expected \[3, 1, 2\]"),
        Wrong("returns_tensor", _CT + _UNIT + "    similarity = unit @ unit[index]\n"
              "    similarity[index] = -float('inf')\n    return similarity.topk(k).indices",
              visible=r"list of 3 Python ints"),
        Wrong("half_precision", _CT + "    unit = torch.nn.functional.normalize(C.half(), dim=1)\n"
              "    similarity = (unit @ unit[index]).float()\n    similarity[index] = -float('inf')\n"
              "    return similarity.topk(k).indices.tolist()"),  # near cosines of the trained table swap: hidden only
    ],
    "ex4_train_recall_window": [
        Wrong("window_misses_the_key", _recall("task.gap + 1", 2, 32, 3e-2), visible=r"is it inside the window"),
        Wrong("over_the_parameter_budget", _recall("task.length", 16, 64, 1e-2), visible=r"the budget is 2,000"),
        Wrong("window_fixed_for_the_visible_gap", _recall("8", 2, 32, 3e-2)),  # L = 6 needs 8: fails only at L = 16
        Wrong("learning_rate_too_small", _recall("task.length", 2, 32, 1e-4), visible=r"the target is 95 %"),
        Wrong("more_batches_than_allowed", _recall("task.length", 2, 32, 1e-2, steps="2 * max_steps"),
              visible=r"at most max_steps = 200 batches"),
    ],
}
RIGHT = {
    "ex1_make_contexts": [
        Right("list_of_rows", _MC + "    padded = [pad_id] * (window - 1) + list(ids)\n"
              "    X = torch.tensor([padded[i : i + window] for i in range(len(ids) - 1)], dtype=torch.long)\n"
              "    return X, torch.tensor(ids[1:], dtype=torch.long)"),
        Right("pad_n_minus_1_then_unfold", _MC + "    padded = torch.tensor([pad_id] * (window - 1) + list(ids))\n"
              "    return padded.unfold(0, window, 1)[:-1], torch.tensor(ids[1:])"),
        Right("one_row_at_a_time", _MC + "    rows = []\n    for i in range(len(ids) - 1):\n"
              "        start = i + 1 - window\n"
              "        rows.append([pad_id] * max(0, -start) + list(ids[max(0, start) : i + 1]))\n"
              "    return torch.tensor(rows, dtype=torch.long).reshape(-1, window), torch.tensor(ids[1:], dtype=torch.long)"),
    ],
    "ex3_closest_tokens": [
        Right("torch_cosine_similarity", _CT + "    similarity = torch.nn.functional.cosine_similarity(C, C[index][None], dim=1)\n"
              "    similarity[index] = -2.0\n    return similarity.topk(k).indices.tolist()"),
        Right("distance_between_unit_rows", _CT + "    unit = torch.nn.functional.normalize(C, dim=1)\n"
              "    distance = (unit - unit[index]).norm(dim=1)\n    distance[index] = float('inf')\n"
              "    return [int(i) for i in distance.argsort()[:k]]"),
        Right("every_other_id_by_similarity", _CT + _UNIT + "    order = (unit @ unit[index]).argsort(descending=True)\n"
              "    return [int(i) for i in order if int(i) != index][:k]"),
    ],
}
DELEGATIONS = {
    "ex1_make_contexts": [
        Delegation("alias", "from utils.window_mlp import sliding_windows as windows\n\n\n"
                            "def make_contexts(ids: list[int], window: int, pad_id: int) -> tuple[torch.Tensor, torch.Tensor]:\n"
                            "    return windows(torch.tensor([ids[:-1]]), window, pad_id)[0], torch.tensor(ids[1:])",
                   denied="utils.window_mlp.sliding_windows"),
    ],
    "ex2_mlp_parameter_count": [
        Delegation("direct", "from utils.window_mlp import WindowMLPConfig, WindowMLPLM\n\n\n"
                             "def mlp_parameter_count(vocab_size: int, window: int, d_embed: int, d_hidden: int) -> int:\n"
                             "    model = WindowMLPLM(WindowMLPConfig(vocab_size, window, d_embed, d_hidden))\n"
                             "    return int(model.num_parameters())",
                   denied="utils.window_mlp.WindowMLPLM"),
    ],
    "ex3_closest_tokens": [
        Delegation("set_up_import", _CT + "    similarity = cosine_similarities(C)[index].clone()\n"
                                    "    similarity[index] = -float('inf')\n    return similarity.topk(k).indices.tolist()",
                   denied="utils.embedding_tools.cosine_similarities"),
        Delegation("getattr", "import importlib\n\n\n"
                              "def closest_tokens(C: torch.Tensor, index: int, k: int) -> list[int]:\n"
                              "    tools = importlib.import_module('utils.embedding_' + 'tools')\n"
                              "    return list(getattr(tools, 'nearest_' + 'neighbours')(C, index, k))",
                   denied="utils.embedding_tools.nearest_neighbours"),
        Delegation("module_access", "import utils.embedding_tools as tools\n\n\n" + _CT
                   + "    return tools.nearest_neighbours(C, index, k)", denied="utils.embedding_tools.nearest_neighbours"),
        Delegation("copy_made_before", _CT + "    similarity = _similar(C)[index].clone()\n"
                                       "    similarity[index] = -float('inf')\n    return similarity.topk(k).indices.tolist()",
                   before="_similar = cosine_similarities", denied="utils.embedding_tools.cosine_similarities"),
    ],
    "ex4_train_recall_window": [
        Delegation("module_access", "import utils.training as training\n\n\n" + _RW
                   + "    model = WindowMLPLM(WindowMLPConfig(task.vocab_size, window=task.length, d_embed=2, d_hidden=32))\n"
                     "    training.train(model, batches, training.TrainConfig(steps=max_steps, lr=3e-2, progress=False))\n"
                     "    return model",
                   denied="utils.training.train"),
    ],
}

from tests.wrong_answers.red_team_1 import adopt  # noqa: E402

# The third exercise red team's (written from the released notebook alone): tests/wrong_answers/red_team_3.
adopt("03", WRONG, DELEGATIONS, RIGHT, bypasses=set(), wrong_right=set(), team=3)
# The fourth exercise red team's (written from the released notebook alone, for the find-the-bug exercise 3):
# tests/wrong_answers/red_team_4. w3, w4, w7 and w8 earned full marks before the hidden tests gained a row exactly opposite
# the query, rows parallel to it, and a check that C is left as it was.
adopt("03", WRONG, DELEGATIONS, RIGHT, bypasses=set(), wrong_right=set(), team=4)
