import { useQuery } from "@tanstack/react-query";
import { Loading } from "../../ui/ui";
import { GradeTable } from "./GradeTable";
import { myGradesQuery } from "./queries";

/** My grades in one space (getMyGrades): the gradebook's row for me. */
export default function MyGrades({ spaceId }: { spaceId: string }) {
  const mine = useQuery(myGradesQuery(spaceId));
  if (!mine.data) return <Loading />;
  return <GradeTable columns={mine.data.columns} rows={[mine.data.row]} />;
}
