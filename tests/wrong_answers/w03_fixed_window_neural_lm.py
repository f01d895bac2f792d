"""Delegations for notebook 03's exercises (its wrong answers come with the notebook's own issue)."""

from tests.wrong_answers.spec import Delegation

NOTEBOOK = "03_fixed_window_neural_lm.ipynb"
WRONG: dict = {}
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
