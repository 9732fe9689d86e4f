import { t } from "elysia";
import { Enum, Id, Timestamp } from "../../platform/http/schemas";
import { MyGrades } from "../gradebook/model";
import { GRADABLE_TYPES } from "../library/access";

export const StudentParams = t.Object({ userPkId: Id });

const SpaceRef = t.Object({ id: t.String(), name: t.String(), isActive: t.Boolean() });
export const MyStudents = t.Array(t.Object({ id: t.String(), displayName: t.String(), spaces: t.Array(SpaceRef) }), {
  description: "The caller's active students, by name; each with the spaces they are enrolled in, by name",
});

const Work = { contentId: t.String(), title: t.String(), type: Enum([...GRADABLE_TYPES, "SURVEY"] as const), dueAt: Timestamp };
export const StudentOverview = t.Object({
  student: t.Object({ id: t.String(), displayName: t.String() }),
  spaces: t.Array(
    t.Object({
      spaceId: t.String(),
      name: t.String(),
      grades: MyGrades,
      dueSoon: t.Array(t.Object({ ...Work, submitted: t.Boolean() }), {
        description: "Work due in the next 7 days (the student's own deadline), soonest first",
      }),
      missing: t.Array(t.Object(Work), { description: "Past due in the last 60 days and not submitted, latest first" }),
    }),
    { description: "The student's active spaces, by name" },
  ),
  recentNotices: t.Array(
    t.Object({ postId: t.String(), spaceId: t.String(), title: t.String(), isEmergency: t.Boolean(), publishAt: Timestamp }),
    {
      description:
        "Published notices and emergency posts of those spaces from the last 30 days, emergencies first, then newest (at most 50)",
    },
  ),
});
