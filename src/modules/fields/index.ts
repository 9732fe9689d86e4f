import { Elysia, t } from "elysia";
import { authPlugin } from "../../platform/auth/context";
import { route } from "../../platform/http/route";
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
  return new Elysia({ name: "module.fields" })
    .use(authPlugin(rt))
    .get("/member-fields", ({ actor }) => listFields(actor.db, "member"), {
      ...route("listMemberFields", "fields", "session"),
      response: { 200: FieldList },
    })
    .post(
      "/member-fields",
      ({ actor, body, set }) => {
        set.status = 201;
        return createField(actor.db, "member", body);
      },
      {
        ...route("createMemberField", "fields", MANAGE),
        body: CreateFieldBody,
        response: { 201: CustomField },
      },
    )
    .post("/member-fields/batch", ({ actor, body }) => batchEditMemberFields(actor.db, body), {
      ...route("batchEditMemberFields", "fields", MANAGE),
      body: BatchEditBody,
      response: { 200: FieldList },
    })
    .put("/member-fields/order", ({ actor, body }) => reorderFields(actor.db, "member", body.orderedIds), {
      ...route("reorderMemberFields", "fields", MANAGE),
      body: ReorderBody,
      response: { 200: FieldList },
    })
    .get("/member-fields/display", ({ actor }) => getMemberFieldDisplay(actor.db), {
      ...route("getMemberFieldDisplay", "fields", "session"),
      response: { 200: DisplayList },
    })
    .put("/member-fields/display", ({ actor, body }) => setMemberFieldDisplay(actor.db, body), {
      ...route("setMemberFieldDisplay", "fields", MANAGE),
      body: DisplayBody,
      response: { 200: DisplayList },
    })
    .patch("/member-fields/:fieldId", ({ actor, params, body }) => updateField(actor.db, "member", params.fieldId, body), {
      ...route("updateMemberField", "fields", MANAGE),
      params: FieldParams,
      body: UpdateFieldBody,
      response: { 200: CustomField },
    })
    .get("/space-fields", ({ actor }) => listFields(actor.db, "space"), {
      ...route("listSpaceFields", "fields", "session"),
      response: { 200: FieldList },
    })
    .post(
      "/space-fields",
      ({ actor, body, set }) => {
        set.status = 201;
        return createField(actor.db, "space", body);
      },
      {
        ...route("createSpaceField", "fields", MANAGE),
        body: CreateFieldBody,
        response: { 201: CustomField },
      },
    )
    .put("/space-fields/order", ({ actor, body }) => reorderFields(actor.db, "space", body.orderedIds), {
      ...route("reorderSpaceFields", "fields", MANAGE),
      body: ReorderBody,
      response: { 200: FieldList },
    })
    .patch("/space-fields/:fieldId", ({ actor, params, body }) => updateField(actor.db, "space", params.fieldId, body), {
      ...route("updateSpaceField", "fields", MANAGE),
      params: FieldParams,
      body: UpdateFieldBody,
      response: { 200: CustomField },
    })
    .put("/spaces/:spaceId/field-values", ({ actor, params, body }) => setSpaceFieldValues(actor, params.spaceId, body.values), {
      ...route("setSpaceFieldValues", "fields", "spaceAdmin"),
      params: t.Object({ spaceId: Id }),
      body: SetFieldValuesBody,
      response: { 200: FieldValues },
    });
}
