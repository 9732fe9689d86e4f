import { t } from "elysia";
import { authPlugin } from "../../platform/auth/context";
import { apiModule, route } from "../../platform/http/route";
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
  summary: "Get a space's gradebook",
  description:
    "Every participant's score in every gradable content (assignments, group assignments, quizzes) and manual column of the space, with weights and totals. JSON by default; with `Accept: text/csv` the same as UTF-8 CSV with a BOM: header `displayName,userId,<column title>…,total`, one line per row, an empty cell where there is no score; cells that start like a formula are neutralised. `includeInactive=true` adds rows (isActive false) for members who left the space or were deactivated. Each row's `total` = Σ(weight × score ÷ maxScore) ÷ Σ(weight of the columns with a score) × 100, null without any score.",
});

/** The space gradebook (JSON or CSV), its manual columns and weights, and a participant's own grades. */
export function gradebookModule(rt: Runtime) {
  return apiModule("module.gradebook")
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
      ...route("getMyGrades", TAG, "spaceMember", {
        summary: "Get your grades in a space",
        description: "The caller's own row of the gradebook: returned grades and released quiz results only.",
      }),
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
          summary: "Create a manual grade column",
          description:
            "Adds a gradebook column for marks given outside the appliance (an oral exam, a project on paper). It comes after the content columns, with its own `maxScore` (>0) and `weight` (≥0, default 1) in each row's total.",
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
          summary: "Update a manual grade column",
          description: "Renames a manual column or changes its `maxScore` or `weight`; absent fields are unchanged.",
          errors: ["400 `VALIDATION_FAILED` when `maxScore` is below a score already entered in the column"],
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
        ...route("deleteGradeColumn", TAG, "spaceAdmin", {
          summary: "Delete a manual grade column",
          description: "Deletes the manual column with every score entered in it.",
        }),
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
          summary: "Enter scores in a manual grade column",
          description: "Sets each listed participant's score in the column; `score` null clears it. Participants not listed keep theirs.",
          errors: ["400 `VALIDATION_FAILED` when a profile is not a PARTICIPANT of the space, or a score is above the column's `maxScore`"],
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
          summary: "Set the weights of gradebook columns",
          description:
            "Sets the weight of content columns (`contentId`) and manual columns (`columnId`) in each row's total; columns not named keep theirs (default 1).",
          errors: ["400 `VALIDATION_FAILED` when an item names neither or both ids, or a column that is not the space's"],
        }),
        params: GradebookParams,
        body: GradebookWeightsBody,
        response: { 204: t.Void() },
      },
    );
}
