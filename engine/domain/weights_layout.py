"""How a model's weights are held in its precision (``calc/weights.py`` works it out): the
parameters at the precision's bytes, with the scales of their groups, and the token embedding and output
layer a quantized checkpoint keeps in 16 bit. The memory a replica holds and the bytes a decode step reads
follow from it."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class WeightsLayout(BaseModel):
    model_config = ConfigDict(defer_build=True, extra="forbid", frozen=True)

    quantized_params_b: float
    """Parameters at the precision's bytes: all but the embedding and output layer."""
    bytes_per_parameter: float
    """The precision's bytes (``sizing.yaml``, ``bytes_per_parameter``)."""
    group_size: int | None = None
    """Weights that share a scale and zero point (INT4: 128); None where the format has no groups."""
    bytes_per_group: float = 0.0
    kept_params_b: float
    """The token embedding's and the output layer's parameters (once where they are tied)."""
    kept_bytes_per_parameter: float
    """16 bit where the precision is quantized; the precision's own bytes for 16 and 32 bit."""
    looked_up_params_b: float
    """The token embedding where it is a matrix of its own: a decode step looks rows of it up and does not
    read it."""
    kept_share_from: str | None = None
    """The catalog model whose share of embedding and output layer parameters a model given by its size is
    taken to have (its own vocabulary and width are not given); None for a catalog model's own layout."""

    @property
    def quantized_bytes_per_parameter(self) -> float:
        """The precision's bytes with its groups' scales and zero points spread over their weights."""
        if self.group_size is None:
            return self.bytes_per_parameter
        return self.bytes_per_parameter + self.bytes_per_group / self.group_size

    @property
    def kept_apart(self) -> bool:
        """The embedding and output layer are held at other bytes than the rest (a quantized precision)."""
        return self.kept_bytes_per_parameter != self.bytes_per_parameter or self.group_size is not None

    @property
    def weights_gb(self) -> float:
        return (
            self.quantized_params_b * self.quantized_bytes_per_parameter
            + self.kept_params_b * self.kept_bytes_per_parameter
        )

    def read_gb(self, params_b: float) -> float:
        """The gigabytes a forward pass reads of ``params_b`` parameters that hold the embedding and the
        output layer (all of a dense model's, a mixture's active or shared ones): the output layer at its
        bytes, the embedding not at all, the rest at the precision's."""
        return (params_b - self.kept_params_b) * self.quantized_bytes_per_parameter + (
            self.kept_params_b - self.looked_up_params_b
        ) * self.kept_bytes_per_parameter
