import { t } from "elysia";
import { authPlugin } from "../../platform/auth/context";
import { apiModule, route } from "../../platform/http/route";
import { Id } from "../../platform/http/schemas";
import type { Runtime } from "../../platform/runtime";
import { FieldValues, SetFieldValuesBody } from "../members/model";
import { BatchEditBody, CreateFieldBody, CustomField, DisplayBody, DisplayList, FieldList, ReorderBody, UpdateFieldBody } from "./model";
import {
  batchEditMemberFields,
  createField,
  getMemberFieldDisplay,
  listFields,
  reorderFields,
  setMemberFieldDisplay,
  updateField,
} from "./service";
import { setSpaceFieldValues } from "./space-values";

const FieldParams = t.Object({ fieldId: Id });
const MANAGE = "permission:tenant-settings:manage";

export function fieldsModule(rt: Runtime) {
  return apiModule("module.fields")
    .use(authPlugin(rt))
    .get("/member-fields", ({ actor }) => listFields(actor.db, "member"), {
      ...route("listMemberFields", "fields", "session", {
        summary: "List member fields",
        description: "Every custom member field, by `order`, inactive ones included.",
      }),
      response: { 200: FieldList },
    })
    .post(
      "/member-fields",
      ({ actor, body, set }) => {
        set.status = 201;
        return createField(actor.db, "member", body);
      },
      {
        ...route("createMemberField", "fields", MANAGE, {
          summary: "Create a member field",
          description: "Adds a custom member field (SHORT_TEXT, LONG_TEXT, NUMBER, DATE or SELECT with `options`) at the end of the order.",
          errors: ["409 `ALREADY_EXISTS` when the key is taken"],
        }),
        body: CreateFieldBody,
        response: { 201: CustomField },
      },
    )
    .post("/member-fields/batch", ({ actor, body }) => batchEditMemberFields(actor.db, body), {
      ...route("batchEditMemberFields", "fields", MANAGE, {
        summary: "Edit member fields in one batch",
        description: "Applies deletes, then updates, then creates, then the new order, all or nothing, and answers every field.",
        errors: ["400 `VALIDATION_FAILED` when an id names no field", "409 `ALREADY_EXISTS` when a created key is taken"],
      }),
      body: BatchEditBody,
      response: { 200: FieldList },
    })
    .put("/member-fields/order", ({ actor, body }) => reorderFields(actor.db, "member", body.orderedIds), {
      ...route("reorderMemberFields", "fields", MANAGE, {
        summary: "Reorder member fields",
        description: "Puts the listed fields first in that order; fields not listed keep their relative order after them.",
        errors: ["400 `VALIDATION_FAILED` when an id names no member field"],
      }),
      body: ReorderBody,
      response: { 200: FieldList },
    })
    .get("/member-fields/display", ({ actor }) => getMemberFieldDisplay(actor.db), {
      ...route("getMemberFieldDisplay", "fields", "session", {
        summary: "Get the member-field display",
        description: "Which default columns and active custom fields the member list shows, and in which order.",
      }),
      response: { 200: DisplayList },
    })
    .put("/member-fields/display", ({ actor, body }) => setMemberFieldDisplay(actor.db, body), {
      ...route("setMemberFieldDisplay", "fields", MANAGE, {
        summary: "Set the member-field display",
        description: "Replaces the display list; a `fieldId` is a custom field id or a default column name.",
        errors: ["400 `VALIDATION_FAILED` when a `fieldId` is neither"],
      }),
      body: DisplayBody,
      response: { 200: DisplayList },
    })
    .patch("/member-fields/:fieldId", ({ actor, params, body }) => updateField(actor.db, "member", params.fieldId, body), {
      ...route("updateMemberField", "fields", MANAGE, {
        summary: "Update a member field",
        description: "Changes a member field's label, options, `required` or `isActive`. Absent fields stay.",
        errors: ["404 `NOT_FOUND` for an unknown field"],
      }),
      params: FieldParams,
      body: UpdateFieldBody,
      response: { 200: CustomField },
    })
    .get("/space-fields", ({ actor }) => listFields(actor.db, "space"), {
      ...route("listSpaceFields", "fields", "session", {
        summary: "List space fields",
        description: "Every custom space field, by `order`, inactive ones included.",
      }),
      response: { 200: FieldList },
    })
    .post(
      "/space-fields",
      ({ actor, body, set }) => {
        set.status = 201;
        return createField(actor.db, "space", body);
      },
      {
        ...route("createSpaceField", "fields", MANAGE, {
          summary: "Create a space field",
          description: "Adds a custom space field at the end of the order.",
          errors: ["409 `ALREADY_EXISTS` when the key is taken"],
        }),
        body: CreateFieldBody,
        response: { 201: CustomField },
      },
    )
    .put("/space-fields/order", ({ actor, body }) => reorderFields(actor.db, "space", body.orderedIds), {
      ...route("reorderSpaceFields", "fields", MANAGE, {
        summary: "Reorder space fields",
        description: "Puts the listed fields first in that order; fields not listed keep their relative order after them.",
        errors: ["400 `VALIDATION_FAILED` when an id names no space field"],
      }),
      body: ReorderBody,
      response: { 200: FieldList },
    })
    .patch("/space-fields/:fieldId", ({ actor, params, body }) => updateField(actor.db, "space", params.fieldId, body), {
      ...route("updateSpaceField", "fields", MANAGE, {
        summary: "Update a space field",
        description: "Changes a space field's label, options, `required` or `isActive`. Absent fields stay.",
        errors: ["404 `NOT_FOUND` for an unknown field"],
      }),
      params: FieldParams,
      body: UpdateFieldBody,
      response: { 200: CustomField },
    })
    .put("/spaces/:spaceId/field-values", ({ actor, params, body }) => setSpaceFieldValues(actor, params.spaceId, body.values), {
      ...route("setSpaceFieldValues", "fields", "spaceAdmin", {
        summary: "Set a space's custom-field values",
        description: "Writes the space's values of the given custom fields and answers all of its values.",
        errors: ["400 `VALIDATION_FAILED` when a `fieldId` names no space field or a value does not fit its type"],
      }),
      params: t.Object({ spaceId: Id }),
      body: SetFieldValuesBody,
      response: { 200: FieldValues },
    });
}
