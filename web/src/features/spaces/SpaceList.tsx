import * as Tabs from "@radix-ui/react-tabs";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { api, ok } from "../../api/client";
import { useI18n } from "../../i18n";
import { Link } from "../../shell/Link";
import { navigate, useSearch } from "../../shell/router";
import { can, useUser } from "../../shell/session";
import { Field, FormError, fieldError, Loading } from "../../shell/ui";
import { spacePath } from "./queries";

/** My spaces (active or ended), joining one with a code, and creating one. */
export function SpaceList() {
  const { t } = useI18n();
  const user = useUser();
  const { get, set } = useSearch();
  const status = get("status") === "inactive" ? "inactive" : "active";
  const qc = useQueryClient();
  const spaces = useQuery({
    queryKey: ["spaces", status],
    queryFn: () => ok(api.GET("/api/v1/spaces", { params: { query: { isActive: status === "active" ? "true" : "false" } } })),
  });
  const [code, setCode] = useState("");
  const join = useMutation({
    mutationFn: () => ok(api.POST("/api/v1/spaces/join", { body: { code } })),
    onSuccess: (r) => {
      void qc.invalidateQueries({ queryKey: ["spaces"] });
      navigate(spacePath(r.space.id));
    },
  });
  const [name, setName] = useState("");
  const create = useMutation({
    mutationFn: () => ok(api.POST("/api/v1/spaces", { body: { name } })),
    onSuccess: (r) => {
      void qc.invalidateQueries({ queryKey: ["spaces"] });
      navigate(spacePath(r.id));
    },
  });
  return (
    <section>
      <h1>{t("spaces.title")}</h1>
      <form
        className="inline"
        onSubmit={(e) => {
          e.preventDefault();
          join.mutate();
        }}
      >
        <Field
          label={t("spaces.joinCode")}
          value={code}
          onChange={(e) => setCode(e.target.value)}
          required
          error={fieldError(join.error, "code", t)}
        />
        <button type="submit">{t("spaces.join")}</button>
      </form>
      <FormError error={join.error} fields={["code"]} />
      {can(user, "space:create") && (
        <form
          className="inline"
          onSubmit={(e) => {
            e.preventDefault();
            create.mutate();
          }}
        >
          <Field
            label={t("spaces.newName")}
            value={name}
            onChange={(e) => setName(e.target.value)}
            required
            error={fieldError(create.error, "name", t)}
          />
          <button type="submit" className="primary">
            {t("spaces.create")}
          </button>
          <FormError error={create.error} fields={["name"]} />
        </form>
      )}
      <Tabs.Root value={status} onValueChange={(v) => set({ status: v === "active" ? null : v })}>
        <Tabs.List aria-label={t("spaces.title")} className="tabs">
          <Tabs.Trigger value="active">{t("spaces.active")}</Tabs.Trigger>
          <Tabs.Trigger value="inactive">{t("spaces.inactive")}</Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value={status}>
          {!spaces.data ? (
            <Loading />
          ) : spaces.data.spaces.length === 0 ? (
            <p>{t("common.empty")}</p>
          ) : (
            <ul className="cards">
              {spaces.data.spaces.map((s) => (
                <li key={s.id}>
                  <Link to={spacePath(s.id)}>{s.name}</Link>
                  <small className="muted">
                    {t("spaces.counts", { members: s.participantCount, posts: s.postCount, contents: s.contentCount })}
                  </small>
                </li>
              ))}
            </ul>
          )}
        </Tabs.Content>
      </Tabs.Root>
    </section>
  );
}
