"""Delegations for notebook 03's exercises and their plausible wrong answers."""

from tests.wrong_answers.spec import Delegation, Wrong

NOTEBOOK = "03_fixed_window_neural_lm.ipynb"
_MC = "def make_contexts(ids: list[int], window: int, pad_id: int) -> tuple[torch.Tensor, torch.Tensor]:\n"
_PC = "def mlp_parameter_count(vocab_size: int, window: int, d_embed: int, d_hidden: int) -> int:\n"
_CT = "def closest_tokens(C: torch.Tensor, index: int, k: int) -> list[int]:\n"
WRONG = {
    "ex1_make_contexts": [
        Wrong("padded_on_the_right", _MC + "    padded = list(ids) + [pad_id] * (window - 1)\n"
              "    X = torch.tensor([padded[i : i + window] for i in range(len(ids) - 1)], dtype=torch.long)\n"
              "    return X, torch.tensor(ids[1:], dtype=torch.long)",
              visible=r"first context is all padding"),
        Wrong("window_before_token", _MC + "    padded = [pad_id] * window + list(ids)\n"
              "    X = torch.tensor([padded[i : i + window] for i in range(len(ids) - 1)], dtype=torch.long)\n"
              "    return X, torch.tensor(ids[1:], dtype=torch.long)",
              visible=r"last context should be the 3 tokens"),
        Wrong("targets_not_shifted", _MC + "    padded = [pad_id] * (window - 1) + list(ids)\n"
              "    X = torch.tensor([padded[i : i + window] for i in range(len(ids) - 1)], dtype=torch.long)\n"
              "    return X, torch.tensor(ids[:-1], dtype=torch.long)",
              visible=r"Y should be the ids after each context"),
        Wrong("float_ids", _MC + "    padded = [pad_id] * (window - 1) + list(ids)\n"
              "    X = torch.tensor([padded[i : i + window] for i in range(len(ids) - 1)], dtype=torch.float)\n"
              "    return X, torch.tensor(ids[1:], dtype=torch.long)",
              visible=r"torch\.long"),
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
    "ex3_closest_tokens": [
        Wrong("euclidean_distance", _CT + "    distance = (C - C[index]).norm(dim=1)\n    distance[index] = float('inf')\n"
              "    return (-distance).topk(k).indices.tolist()",
              visible=r"cosine, not distance"),
        Wrong("includes_itself", _CT + "    unit = C / C.norm(dim=1, keepdim=True)\n"
              "    return (unit @ unit[index]).topk(k).indices.tolist()",
              visible=r"leave the token itself out"),
        Wrong("least_similar_first", _CT + "    unit = C / C.norm(dim=1, keepdim=True)\n    similarity = unit @ unit[index]\n"
              "    similarity[index] = float('inf')\n    return (-similarity).topk(k).indices.tolist()",
              visible=r"expected \[1, 2\]"),
        Wrong("returns_tensor", _CT + "    unit = C / C.norm(dim=1, keepdim=True)\n    similarity = unit @ unit[index]\n"
              "    similarity[index] = -float('inf')\n    return similarity.topk(k).indices",
              visible=r"list"),
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
        Delegation("getattr", "import importlib\n\n\n"
                              "def closest_tokens(C: torch.Tensor, index: int, k: int) -> list[int]:\n"
                              "    tools = importlib.import_module('utils.embedding_' + 'tools')\n"
                              "    return list(getattr(tools, 'nearest_' + 'neighbours')(C, index, k))",
                   denied="utils.embedding_tools.nearest_neighbours"),
    ],
}
