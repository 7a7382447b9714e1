"""The model a workload runs, as the input gives it: a catalog ID or a size, its precision, and for a
model given by its size its attention shape. Shared by the workload file and the size request."""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import AfterValidator, Field, model_validator

from gpu_advisor.engine.common.errors import unknown_model_problem
from gpu_advisor.engine.common.wording import Grouped, Words, WordsError
from gpu_advisor.engine.domain.choices import Precision
from gpu_advisor.engine.domain.strict_input import StrictInput

PositiveFloat = Annotated[float, Field(gt=0)]

# The workload's own validation messages (raised in model validators), translated like pydantic's.
MISSING_SIZE = "give model.name (a catalog ID) or model.params_b"
ACTIVE_ABOVE_TOTAL = "model.active_params_b cannot exceed model.params_b"
KV_HEADS_UNEVEN = (
    "num_key_value_heads must divide num_attention_heads (grouped-query attention shares each key-value "
    "head among the same number of query heads)"
)
VALUE_ERRORS: tuple[str, ...] = (MISSING_SIZE, ACTIVE_ABOVE_TOTAL, KV_HEADS_UNEVEN)


class AttentionShape(StrictInput):
    """A model's attention shape as its ``config.json`` states it (the same names), for a model given by its
    size: the KV cache per token and the attention compute follow from it. Multi-head and grouped-query
    attention only (a latent-attention model's cache is not of this shape)."""

    num_hidden_layers: int = Field(gt=0, le=1_000, description="Transformer layers.")
    num_attention_heads: int = Field(gt=0, le=1_024, description="Query heads per layer.")
    num_key_value_heads: int = Field(
        gt=0,
        le=1_024,
        description="Key-value heads per layer: num_attention_heads without grouped-query attention.",
    )
    head_dim: int = Field(
        gt=0,
        le=4_096,
        description="Width of one head; hidden_size / num_attention_heads where config.json gives none.",
    )

    @model_validator(mode="after")
    def _groups_even(self) -> AttentionShape:
        if self.num_attention_heads % self.num_key_value_heads:
            raise ValueError(KV_HEADS_UNEVEN)
        return self

    # The names the sizing reads off a catalog model (``ModelConfig``), so either sizes a model.
    attention: ClassVar[Literal["gqa"]] = "gqa"
    kv_lora_rank: ClassVar[None] = None
    qk_rope_head_dim: ClassVar[None] = None
    num_experts: ClassVar[None] = None
    experts_per_token: ClassVar[None] = None
    fp8_checkpoint: ClassVar[None] = None

    @property
    def num_layers(self) -> int:
        return self.num_hidden_layers

    @property
    def num_kv_heads(self) -> int:
        return self.num_key_value_heads


def catalog_model(name: str) -> str:
    """A model ID of the shipped catalog, checked with the workload's other fields so that every problem
    is reported at once (``pipeline/defaults.py`` checks it again against the knowledge base in use)."""
    from gpu_advisor.engine.domain.knowledge.loading import load_knowledge

    ids = [model.id for model in load_knowledge().models.models]
    if name not in ids:
        raise WordsError(unknown_model_problem(name, ids), names_input=True)
    return name


class ModelSpec(StrictInput):
    name: Annotated[str, AfterValidator(catalog_model)] | None = Field(
        default=None, description="Catalog model ID, e.g. llama-3.1-70b."
    )
    params_b: PositiveFloat | None = Field(
        default=None, le=100_000, description="Total parameters, billions."
    )
    active_params_b: PositiveFloat | None = Field(
        default=None, le=100_000, description="Parameters active per token (mixture-of-experts), billions."
    )
    precision: Precision = Field(description="Weight precision: fp32, bf16, fp16, fp8, int8 or int4.")
    custom_weights: bool = Field(
        default=False, description="Own or fine-tuned weights: a third-party model API cannot serve them."
    )
    reasoning: bool | None = Field(
        default=None,
        description="Whether the model thinks before it answers (a chain of thought counted in its output "
        "tokens): left out, the catalog's word for a catalog model (Qwen3 and DeepSeek-R1 think by default) "
        "and no for a model given by its size; false for a hybrid model served with thinking off. Managed "
        "APIs stand in for it only where theirs does the same (KNB021, KNB022).",
    )
    attention_shape: AttentionShape | None = Field(
        default=None,
        description="For a model given by its size: its attention shape from config.json, which sets the "
        "KV cache per token (left out, the closest catalog model's stands in). Multi-head or grouped-query "
        "attention only: a latent-attention model (DeepSeek V3/R1) caches far less than this shape says.",
    )

    @model_validator(mode="after")
    def _size_given(self) -> ModelSpec:
        if self.name is None and self.params_b is None:
            raise ValueError(MISSING_SIZE)
        if (
            self.params_b is not None
            and self.active_params_b is not None
            and self.active_params_b > self.params_b
        ):
            raise ValueError(ACTIVE_ABOVE_TOTAL)
        if self.attention_shape is not None and self.params_b is not None:
            refuse_shape_beyond_size(self.attention_shape, self.params_b, "model.")
        return self


def refuse_shape_beyond_size(shape: AttentionShape, params_b: float, prefix: str = "") -> None:
    """An attention shape that holds more parameters than the model's size is refused: each layer's
    query and output projections map at least one head's width to all the query heads' and back, a floor
    far below a real model's (Llama 3.1 70B: 0.17B of 70B). A shape of 1,000 layers and heads was taken,
    and its KV cache reported as weights that do not fit."""
    floor_b = shape.num_hidden_layers * 2 * shape.num_attention_heads * shape.head_dim**2 / 1e9
    if floor_b > params_b:
        raise WordsError(
            Words(
                "%(prefix)sattention_shape: its query and output projections alone hold at least %(floor)sB "
                "parameters (layers × 2 × heads × head_dim × head_dim), more than %(prefix)sparams_b; check "
                "the shape against config.json",
                prefix=prefix,
                floor=Grouped(round(floor_b)) if floor_b >= 10 else f"{floor_b:.2g}",
            )
        )
