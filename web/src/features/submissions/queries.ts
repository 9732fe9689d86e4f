import { queryOptions } from "@tanstack/react-query";

/**
 * The cache keys of one kind of submitted work (assignments, group assignments), all of a content's
 * under `[kind, contentId]`: the shape src/modules/submissions gives both kinds on the server.
 */
export const submissionKeys = <K extends string>(kind: K) => ({
  content: (contentId: string) => [kind, contentId] as const,
  config: (contentId: string) => [kind, contentId, "config"] as const,
  mine: (contentId: string) => [kind, contentId, "mine"] as const,
  submissions: (contentId: string) => [kind, contentId, "submissions"] as const,
  /** One submitter's revisions: a participant's (profileId) or a group's (groupId). */
  history: (contentId: string, submitterId: string) => [kind, contentId, "history", submitterId] as const,
});

type Keys = ReturnType<typeof submissionKeys>;

/**
 * The reads every kind of submitted work has, from that kind's calls: its config, my submission,
 * every submitter's latest (the grading list) and one submitter's revisions, oldest first.
 */
export function submissionQueries<Config, Mine, List, History>(
  keys: Keys,
  calls: {
    config: (contentId: string) => Promise<Config>;
    mine: (contentId: string) => Promise<Mine>;
    submissions: (contentId: string) => Promise<List>;
    history: (contentId: string, submitterId: string) => Promise<History>;
  },
) {
  return {
    config: (contentId: string) => queryOptions({ queryKey: keys.config(contentId), queryFn: () => calls.config(contentId) }),
    mine: (contentId: string) => queryOptions({ queryKey: keys.mine(contentId), queryFn: () => calls.mine(contentId) }),
    submissions: (contentId: string) =>
      queryOptions({ queryKey: keys.submissions(contentId), queryFn: () => calls.submissions(contentId) }),
    history: (contentId: string, submitterId: string) =>
      queryOptions({ queryKey: keys.history(contentId, submitterId), queryFn: () => calls.history(contentId, submitterId) }),
  };
}

/** The grading lists read the first 100 submitters (the list operations' largest page). */
export const GRADING_PAGE = { pageSize: 100 } as const;
