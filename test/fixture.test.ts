import { describe, expect, test } from "bun:test";
import { useContentSpace } from "./helpers/fixture";
import { notFound, useServer } from "./helpers/server";

// The fixture builder itself: what every content test starts from.
const api = useServer();
const fx = useContentSpace(api, { spaceName: "Fixture space", participants: ["Alice", "Bob"] });

describe("test/helpers/fixture.ts — useContentSpace", () => {
  test("content of any kind is configured and visible to the participants only", async () => {
    const id = await fx.content("SURVEY", { config: { questions: [{ type: "SHORT_TEXT", title: "Name" }] } });
    const [alice] = fx.participants;
    expect((await api.as(alice).get(`/surveys/${id}/participant-view`)).body.questions.map((q: any) => q.title)).toEqual(["Name"]);
    notFound(await api.as(fx.outsider).get(`/surveys/${id}/participant-view`));
    notFound(await api.as(fx.other).get(`/surveys/${id}/participant-view`));
  });

  test("uploads are the member's ready files; group sets hold the members given", async () => {
    const [alice, bob] = fx.participants;
    const fileId = await fx.upload(alice, { fileName: "notes.txt" });
    expect((await api.as(alice).get(`/files/${fileId}`)).body).toMatchObject({ fileName: "notes.txt" });
    const { groups } = await fx.groupSet("Pairs", [{ name: "One", memberIds: [alice.memberId, bob.memberId] }]);
    expect(groups.map((g: { name: string }) => g.name)).toEqual(["One"]);
  });
});
