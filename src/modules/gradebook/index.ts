import { Elysia } from "elysia";
import { authPlugin } from "../../platform/auth/context";
import { route } from "../../platform/http/route";
import type { Runtime } from "../../platform/runtime";
import { gradebookCsv, wantsCsv } from "./csv";
import { Gradebook, GradebookParams, MyGrades } from "./model";
import { getMyGrades, getSpaceGradebook } from "./service";

const TAG = "spaces";

/** The space gradebook (JSON or CSV) and a participant's own grades (DECISIONS §13 Gradebook). */
export function gradebookModule(rt: Runtime) {
  return new Elysia({ name: "module.gradebook" })
    .use(authPlugin(rt))
    .get(
      "/spaces/:spaceId/gradebook",
      ({ actor, params, headers }) => {
        const book = getSpaceGradebook(actor, params.spaceId);
        if (!wantsCsv(headers.accept)) return book;
        return new Response(gradebookCsv(book), {
          headers: { "content-type": "text/csv; charset=utf-8", "content-disposition": 'attachment; filename="gradebook.csv"' },
        });
      },
      {
        ...route("getSpaceGradebook", TAG, "spaceAdmin"),
        detail: {
          ...route("getSpaceGradebook", TAG, "spaceAdmin", {
            summary: "Get a space's gradebook",
            description:
              "Every active participant's score in every gradable content of the space (assignments, group assignments, quizzes). JSON by default; with `Accept: text/csv` the same as UTF-8 CSV with a BOM: header `displayName,userId,<content title>…`, one line per row, an empty cell where there is no score.",
          }).detail,
          "x-response-also": { "text/csv": { schema: { type: "string", description: "UTF-8 CSV with a byte-order mark" } } },
        },
        params: GradebookParams,
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
    });
}
