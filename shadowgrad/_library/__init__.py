"""The machinery behind `shadowgrad.library` (torch.library) and `shadowgrad.ops.<ns>`
(torch.ops): operator schemas, the table of defined operators with their kernels per dispatch
key, custom ops (`custom_op`) and their autograd. Mirrors `torch._library` as far as torch's
public behaviour on CPU goes; there is no C++ dispatcher, tracing or fake tensors."""
