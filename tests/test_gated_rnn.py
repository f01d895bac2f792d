"""The GRU cell: the written-out step equals torch's GRU, its gates do what the docstring says, gradients survive."""

import torch

from utils.gated_rnn import GRUCell

E, H = 5, 7


def make_cell(seed: int = 0) -> GRUCell:
    torch.manual_seed(seed)
    return GRUCell(E, H)


def random_inputs(*shape: int, seed: int = 1) -> torch.Tensor:
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed))


def test_step_equals_torch_gru_cell_with_copied_weights():
    cell = make_cell()
    reference = torch.nn.GRUCell(E, H)
    with torch.no_grad():
        reference.weight_ih.copy_(cell.rnn.weight_ih_l0)
        reference.weight_hh.copy_(cell.rnn.weight_hh_l0)
        reference.bias_ih.copy_(cell.rnn.bias_ih_l0)
        reference.bias_hh.copy_(cell.rnn.bias_hh_l0)
    x, h = random_inputs(4, E, seed=1), random_inputs(4, H, seed=2)
    ours = cell.step(cell.project_inputs(x[:, None, :])[:, 0], h)
    assert ours.shape == (4, H)
    assert torch.allclose(ours, reference(x, h), atol=1e-5)


def test_step_follows_the_documented_equations_in_gate_order_r_z_n():
    cell = make_cell(seed=3)
    x, h = random_inputs(3, E, seed=4), random_inputs(3, H, seed=5)
    W_ir, W_iz, W_in = cell.weight_ih.chunk(3)
    W_hr, W_hz, W_hn = cell.weight_hh.chunk(3)
    b_ir, b_iz, b_in = cell.rnn.bias_ih_l0.chunk(3)
    b_hr, b_hz, b_hn = cell.rnn.bias_hh_l0.chunk(3)
    r = torch.sigmoid(x @ W_ir.T + b_ir + h @ W_hr.T + b_hr)
    z = torch.sigmoid(x @ W_iz.T + b_iz + h @ W_hz.T + b_hz)
    n = torch.tanh(x @ W_in.T + b_in + r * (h @ W_hn.T + b_hn))
    expected = (1 - z) * n + z * h
    assert torch.allclose(cell.step(cell.project_inputs(x), h), expected, atol=1e-6)


def test_project_inputs_is_one_stacked_affine_map_per_time_step():
    cell = make_cell()
    x = random_inputs(2, 6, E)
    projected = cell.project_inputs(x)
    assert projected.shape == (2, 6, 3 * H)
    assert cell.weight_ih.shape == (3 * H, E) and cell.weight_hh.shape == (3 * H, H)
    for t in range(6):  # each step's projection depends on that step's input only
        expected = x[:, t] @ cell.rnn.weight_ih_l0.T + cell.rnn.bias_ih_l0
        assert torch.allclose(projected[:, t], expected, atol=1e-6)


def test_written_out_steps_equal_the_compiled_run():
    cell = make_cell()
    x, h0 = random_inputs(3, 9, E, seed=6), random_inputs(3, H, seed=7)
    states, last = cell.run(x, h0)
    assert states.shape == (3, 9, H) and torch.equal(last, states[:, -1])
    projected, h = cell.project_inputs(x), h0
    for t in range(9):
        h = cell.step(projected[:, t], h)
        assert torch.allclose(h, states[:, t], atol=1e-5)


def test_gradients_of_the_step_equal_torch_gru_cell():
    cell = make_cell()
    reference = torch.nn.GRUCell(E, H)
    reference.load_state_dict({name.removesuffix("_l0"): value for name, value in cell.rnn.state_dict().items()})
    x = random_inputs(4, E, seed=8)
    h_ours = random_inputs(4, H, seed=9).requires_grad_()
    h_ref = h_ours.detach().clone().requires_grad_()
    cell.step(cell.project_inputs(x), h_ours).square().sum().backward()
    reference(x, h_ref).square().sum().backward()
    assert torch.allclose(h_ours.grad, h_ref.grad, atol=1e-5)
    assert torch.allclose(cell.rnn.weight_hh_l0.grad, reference.weight_hh.grad, atol=1e-5)
    assert torch.allclose(cell.rnn.bias_ih_l0.grad, reference.bias_ih.grad, atol=1e-5)


def saturate_update_gate(cell: GRUCell, value: float) -> None:
    """Push z_t to sigmoid(value) whatever the input: large positive copies the state, large negative replaces it."""
    with torch.no_grad():
        cell.rnn.weight_ih_l0[H : 2 * H].zero_()
        cell.rnn.weight_hh_l0[H : 2 * H].zero_()
        cell.rnn.bias_ih_l0[H : 2 * H].fill_(value)
        cell.rnn.bias_hh_l0[H : 2 * H].zero_()


def test_update_gate_near_one_copies_the_state_forward():
    cell = make_cell()
    saturate_update_gate(cell, 30.0)  # z = sigmoid(30), 1 - z < 1e-13
    x, h0 = random_inputs(2, 20, E, seed=10), random_inputs(2, H, seed=11)
    states, last = cell.run(x, h0)
    assert torch.allclose(last, h0, atol=1e-6) and torch.allclose(states, h0[:, None].expand(2, 20, H), atol=1e-6)


def test_update_gate_near_zero_takes_the_candidate_and_reset_zero_ignores_the_state():
    cell = make_cell()
    saturate_update_gate(cell, -30.0)  # z ~ 0: h_t = n_t
    with torch.no_grad():  # r ~ 0 as well: n_t = tanh(W_in x + b_in), whatever h_{t-1}
        cell.rnn.weight_ih_l0[:H].zero_()
        cell.rnn.weight_hh_l0[:H].zero_()
        cell.rnn.bias_ih_l0[:H].fill_(-30.0)
    x = random_inputs(2, E, seed=12)
    candidate = torch.tanh(x @ cell.weight_ih[2 * H :].T + cell.rnn.bias_ih_l0[2 * H :])
    for seed in (13, 14):
        h = random_inputs(2, H, seed=seed) * 5
        assert torch.allclose(cell.step(cell.project_inputs(x), h), candidate, atol=1e-6)


def test_gradient_through_many_steps_survives_only_with_an_update_gate_near_one():
    x = random_inputs(1, 40, E, seed=15)

    def gradient_norm(cell: GRUCell) -> float:
        """||d sum(h_40) / d h_0||: what is left of the gradient after 40 steps back in time."""
        h0 = torch.full((1, H), 0.1, requires_grad=True)
        projected, h = cell.project_inputs(x), h0
        for t in range(40):
            h = cell.step(projected[:, t], h)
        (gradient,) = torch.autograd.grad(h.sum(), h0)
        return float(gradient.norm())

    carrying = make_cell()
    saturate_update_gate(carrying, 6.0)  # z ~ 0.9975: most of the state carried forward each step
    assert gradient_norm(carrying) > 0.5  # sqrt(H) ~ 2.6 at z = 1 exactly
    assert gradient_norm(make_cell()) < 1e-4  # the same cell with its random gates: the gradient vanishes


def test_hidden_size_is_kept_and_the_weights_live_in_a_torch_gru():
    cell = make_cell()
    assert isinstance(cell.rnn, torch.nn.GRU) and cell.rnn.batch_first and cell.d_hidden == H
    bound = 1 / H**0.5  # torch's uniform(-1/sqrt(H), 1/sqrt(H)) initialisation
    assert all(float(p.detach().abs().max()) <= bound for p in cell.parameters())
