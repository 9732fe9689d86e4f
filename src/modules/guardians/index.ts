import { authPlugin } from "../../platform/auth/context";
import { apiModule, route } from "../../platform/http/route";
import type { Runtime } from "../../platform/runtime";
import { MyStudents, StudentOverview, StudentParams } from "./model";
import { getStudentOverview, listMyStudents } from "./service";

const TAG = "guardians";

/** A guardian's own views of their students (docs/rules/members.md#overview). */
export function guardiansModule(rt: Runtime) {
  return apiModule("module.guardians")
    .use(authPlugin(rt))
    .get("/me/students", ({ actor }) => listMyStudents(actor), {
      ...route("listMyStudents", TAG, "session", {
        summary: "The students the caller is a guardian of",
        description: "Active students only (a deactivated student drops out); an empty list for anyone who is no guardian.",
      }),
      response: { 200: MyStudents },
    })
    .get("/me/students/:userPkId/overview", ({ actor, params }) => getStudentOverview(actor, params.userPkId), {
      ...route("getStudentOverview", TAG, "session", {
        summary: "What a guardian sees of one student",
        description:
          "404 unless the caller is a guardian of that active student. Read-only, in the student's own visibility: per active space the student's getMyGrades (returned grades and released quiz results only), work due in the next 7 days with whether it was submitted, work past due in the last 60 days not submitted (the student's own deadline: an extension counts; a quiz or a survey is due when it closes; a survey counts as submitted once its response is); notices and emergencies of the last 30 days, emergencies first. Never a submission's body, files or messages.",
      }),
      params: StudentParams,
      response: { 200: StudentOverview },
    });
}
