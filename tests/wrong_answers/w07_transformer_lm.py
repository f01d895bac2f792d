"""Delegations for notebook 07's exercises (its wrong answers come with the notebook's own issue)."""

from tests.wrong_answers.spec import Delegation

NOTEBOOK = "07_transformer_lm.ipynb"
WRONG: dict = {}
DELEGATIONS = {
    "ex1_masked_statistics": [
        Delegation("module_access", "import utils.norm_demo as nd\n\n\n"
                                    "def masked_feature_statistics(x: torch.Tensor, mask: torch.Tensor):\n"
                                    "    return nd.masked_batch_statistics(x, mask)",
                   denied="utils.norm_demo.masked_batch_statistics"),
    ],
    "ex2_pre_ln_block": [
        Delegation("call_the_block", "def pre_ln_block_forward(block, x: torch.Tensor) -> torch.Tensor:\n"
                                     "    return block(x)[0]",
                   denied="utils.transformer.Block.forward"),
    ],
    "ex3_post_ln_block": [
        Delegation("getattr", "def post_ln_block_forward(block, x: torch.Tensor) -> torch.Tensor:\n"
                              "    return getattr(block, 'for' + 'ward')(x)[0]",
                   denied="utils.transformer.Block.forward"),
    ],
}
