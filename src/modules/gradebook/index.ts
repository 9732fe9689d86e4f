import { Elysia, t } from "elysia";
import { authPlugin } from "../../platform/auth/context";
import { route } from "../../platform/http/route";
import type { Runtime } from "../../platform/runtime";
import { createGradeColumn, deleteGradeColumn, setGradebookWeights, setGradeColumnScores, updateGradeColumn } from "./columns";
import { gradebookCsv, wantsCsv } from "./csv";
import {
  CreateGradeColumnBody,
  Gradebook,
  GradebookParams,
  GradebookQuery,
  GradebookWeightsBody,
  GradeColumn,
  GradeColumnParams,
  GradeColumnScoresBody,
  MyGrades,
  UpdateGradeColumnBody,
} from "./model";
import { getMyGrades, getSpaceGradebook } from "./service";

const TAG = "spaces";
const BOOK = route("getSpaceGradebook", TAG, "spaceAdmin", {
  summary: "Every participant's score in every gradable content and manual column of the space, with totals (JSON or CSV)",
  description:
    "JSON by default; with `Accept: text/csv` the same as UTF-8 CSV with a BOM: header `displayName,userId,<column title>…,total`, one line per row, an empty cell where there is no score; cells that start like a formula are neutralised. `includeInactive=true` adds rows (isActive false) for members who left the space or were deactivated. Each row's `total` = Σ(weight × score ÷ maxScore) ÷ Σ(weight of the columns with a score) × 100, null without any score.",
});

/** The space gradebook (JSON or CSV), its manual columns and weights, and a participant's own grades. */
export function gradebookModule(rt: Runtime) {
  return new Elysia({ name: "module.gradebook" })
    .use(authPlugin(rt))
    .get(
      "/spaces/:spaceId/gradebook",
      ({ actor, params, query, headers }) => {
        const book = getSpaceGradebook(actor, params.spaceId, { includeInactive: query.includeInactive === "true" });
        if (!wantsCsv(headers.accept)) return book;
        return new Response(gradebookCsv(book), {
          headers: { "content-type": "text/csv; charset=utf-8", "content-disposition": 'attachment; filename="gradebook.csv"' },
        });
      },
      {
        ...BOOK,
        detail: {
          ...BOOK.detail,
          "x-response-also": { "text/csv": { schema: { type: "string", description: "UTF-8 CSV with a byte-order mark" } } },
        },
        params: GradebookParams,
        query: GradebookQuery,
        response: { 200: Gradebook },
      },
    )
    .get("/spaces/:spaceId/my-grades", ({ actor, params }) => getMyGrades(actor, params.spaceId), {
      ...route("getMyGrades", TAG, "spaceMember", "The caller's own released grades in the space"),
      params: GradebookParams,
      response: { 200: MyGrades },
    })
    .post(
      "/spaces/:spaceId/grade-columns",
      ({ actor, params, body, set }) => {
        set.status = 201;
        return createGradeColumn(actor, params.spaceId, body);
      },
      {
        ...route("createGradeColumn", TAG, "spaceAdmin", {
          summary: "Adds a manual gradebook column (offline marks)",
          description: "The column comes after the content columns, with its own maxScore (>0) and weight (≥0, default 1) in the total.",
        }),
        params: GradebookParams,
        body: CreateGradeColumnBody,
        response: { 201: GradeColumn },
      },
    )
    .patch(
      "/spaces/:spaceId/grade-columns/:columnId",
      ({ actor, params, body }) => updateGradeColumn(actor, params.spaceId, params.columnId, body),
      {
        ...route("updateGradeColumn", TAG, "spaceAdmin", {
          summary: "Renames a manual column or changes its maxScore or weight",
          description: "Absent fields are unchanged; a maxScore below a score already entered is 400.",
        }),
        params: GradeColumnParams,
        body: UpdateGradeColumnBody,
        response: { 200: GradeColumn },
      },
    )
    .delete(
      "/spaces/:spaceId/grade-columns/:columnId",
      ({ actor, params, set }) => {
        deleteGradeColumn(actor, params.spaceId, params.columnId);
        set.status = 204;
      },
      {
        ...route("deleteGradeColumn", TAG, "spaceAdmin", "Deletes a manual column and its scores"),
        params: GradeColumnParams,
        response: { 204: t.Void() },
      },
    )
    .put(
      "/spaces/:spaceId/grade-columns/:columnId/scores",
      ({ actor, params, body, set }) => {
        setGradeColumnScores(actor, params.spaceId, params.columnId, body);
        set.status = 204;
      },
      {
        ...route("setGradeColumnScores", TAG, "spaceAdmin", {
          summary: "Enters (or clears with null) participants' scores in a manual column",
          description:
            "Each profile must be a PARTICIPANT of the space and each score at most the column's maxScore (else 400 naming the item).",
        }),
        params: GradeColumnParams,
        body: GradeColumnScoresBody,
        response: { 204: t.Void() },
      },
    )
    .put(
      "/spaces/:spaceId/gradebook/weights",
      ({ actor, params, body, set }) => {
        setGradebookWeights(actor, params.spaceId, body);
        set.status = 204;
      },
      {
        ...route("setGradebookWeights", TAG, "spaceAdmin", {
          summary: "Sets the weights of gradebook columns in the total",
          description:
            "Each item names exactly one of a content column (`contentId`) or a manual column (`columnId`) of the space; columns not named keep their weight (default 1).",
        }),
        params: GradebookParams,
        body: GradebookWeightsBody,
        response: { 204: t.Void() },
      },
    );
}
