import { t } from "elysia";
import { Enum, Int, SafeInt } from "../../platform/http/schemas";
import { FIELD_TYPES } from "../../schema/fields";

const FieldId = t.String({ minLength: 1, maxLength: 100 });
export const FieldType = Enum(FIELD_TYPES);
const Label = t.String({ minLength: 1, maxLength: 255, error: "must be 1..255 characters" });
const Options = t.Array(t.String({ minLength: 1, maxLength: 100, error: "must be 1..100 characters" }), {
  maxItems: 50,
  error: "must be at most 50 options of 1..100 characters",
});

export const CustomField = t.Object({
  id: t.String(),
  key: t.String(),
  label: t.String(),
  type: FieldType,
  options: t.Array(t.String()),
  isDefault: t.Boolean(),
  required: t.Boolean(),
  order: Int(),
  isActive: t.Boolean(),
});
export const FieldList = t.Object({ fields: t.Array(CustomField) });

export const CreateFieldBody = t.Object({
  key: t.String({ minLength: 1, maxLength: 100, pattern: "^[a-z0-9_]+$", error: "must be 1..100 lowercase letters, digits or _" }),
  label: Label,
  type: FieldType,
  options: t.Optional(Options),
  required: t.Optional(t.Boolean({ default: false })),
});

export const UpdateFieldBody = t.Object({
  label: t.Optional(Label),
  options: t.Optional(Options),
  required: t.Optional(t.Boolean()),
  isActive: t.Optional(t.Boolean()),
});

export const BatchEditBody = t.Object({
  deletes: t.Optional(t.Array(FieldId, { maxItems: 200 })),
  updates: t.Optional(t.Array(t.Object({ id: FieldId, ...UpdateFieldBody.properties }), { maxItems: 200 })),
  creates: t.Optional(t.Array(CreateFieldBody, { maxItems: 200 })),
  orderedIds: t.Optional(t.Array(FieldId, { maxItems: 200 })),
});

export const ReorderBody = t.Object({ orderedIds: t.Array(FieldId, { maxItems: 200 }) });

export const Visibility = Enum(["PUBLIC"]);
export const DisplayBody = t.Object({
  entries: t.Array(
    t.Object({
      fieldId: FieldId,
      visible: t.Optional(t.Boolean()),
      order: t.Optional(SafeInt()),
      visibility: t.Optional(Visibility),
    }),
    { maxItems: 500 },
  ),
});

export const FieldDisplayItem = t.Object({
  fieldId: t.String(),
  visible: t.Boolean(),
  order: Int(),
  visibility: t.String(),
  label: t.String(),
  type: t.String(),
  isDefault: t.Boolean(),
});
export const DisplayList = t.Object({ items: t.Array(FieldDisplayItem) });
