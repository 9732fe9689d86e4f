import { useQuery } from "@tanstack/react-query";
import { api, ok } from "../../api/client";
import { Loading } from "../../ui/ui";
import { GradeTable } from "./GradeTable";

/** My grades in one space (getMyGrades): the gradebook's row for me. */
export default function MyGrades({ spaceId }: { spaceId: string }) {
  const mine = useQuery({
    queryKey: ["my-grades", spaceId],
    queryFn: () => ok(api.GET("/api/v1/spaces/{spaceId}/my-grades", { params: { path: { spaceId } } })),
  });
  if (!mine.data) return <Loading />;
  return <GradeTable columns={mine.data.columns} rows={[mine.data.row]} />;
}
