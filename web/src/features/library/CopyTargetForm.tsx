import type { UseMutationResult } from "@tanstack/react-query";
import { type ReactNode, useId, useState } from "react";
import { useI18n } from "../../i18n";
import { FormError, fieldError, Loading } from "../../ui/ui";
import { useAllActiveSpaces } from "../spaces/queries";
import { type Node, spaceTree } from "./folders";
import { useNodes } from "./queries";

/** Where a copy goes: a space, and the folder in it when the copy goes into one. */
export type CopyTarget = { spaceId: string; spaceName: string; nodeId: string | null };

/**
 * The "Copy to…" form a content and a folder share: the target (a space, or a folder under its
 * space), the copy's own fields, the submit, and once copied the done message with what comes next.
 * The copy runs as `copy.mutate(target)`, so the done view knows where it went (`copy.variables`).
 */
export function CopyTargetForm<T>({
  into,
  help,
  copy,
  fields,
  errorFields = [],
  done,
}: {
  into: "space" | "folder";
  help: string;
  copy: UseMutationResult<T, Error, CopyTarget>;
  /** The copy's own fields, after the target (a content's title). */
  fields?: ReactNode;
  errorFields?: string[];
  done: (result: T, target: CopyTarget) => { message: string; next: ReactNode };
}) {
  const { t } = useI18n();
  const id = useId();
  const nodes = useNodes();
  const spaces = useAllActiveSpaces(true);
  const [value, setValue] = useState("");
  if (!spaces.data || (into === "folder" && !nodes.data)) return <Loading />;
  if (copy.data !== undefined && copy.variables) {
    const { message, next } = done(copy.data, copy.variables);
    return (
      <div className="stack">
        <p role="status">{message}</p>
        <div>{next}</div>
      </div>
    );
  }
  const all = nodes.data?.nodes ?? [];
  const groups = spaces.data.map((s) => ({ ...s, folders: spaceTree(all, s.id) })).filter((g) => g.folders.length > 0);
  const target = (): CopyTarget | null => {
    if (into === "space") {
      const space = spaces.data.find((s) => s.id === value);
      return space ? { spaceId: space.id, spaceName: space.name, nodeId: null } : null;
    }
    const group = groups.find((g) => g.folders.some((n) => n.id === value));
    return group ? { spaceId: group.id, spaceName: group.name, nodeId: value } : null;
  };
  const label = (n: Node) => `${"— ".repeat(n.depth)}${n.title}`;
  const error = fieldError(copy.error, into === "folder" ? "nodeId" : "spaceId", t);
  return (
    <form
      className="stack"
      onSubmit={(e) => {
        e.preventDefault();
        const to = target();
        if (to) copy.mutate(to);
      }}
    >
      <p className="muted">{help}</p>
      <div className="field">
        <label htmlFor={id}>{into === "space" ? t("library.copy.space") : t("library.copy.target")}</label>
        <select id={id} required value={value} onChange={(e) => setValue(e.target.value)}>
          <option value="">{into === "space" ? t("library.copy.pickSpace") : t("library.copy.pick")}</option>
          {into === "space"
            ? spaces.data.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name}
                </option>
              ))
            : groups.map((g) => (
                <optgroup key={g.id} label={g.name}>
                  {g.folders.map((n) => (
                    <option key={n.id} value={n.id}>
                      {label(n)}
                    </option>
                  ))}
                </optgroup>
              ))}
        </select>
        {error && <small className="error">{error}</small>}
      </div>
      {fields}
      <FormError error={copy.error} fields={[into === "folder" ? "nodeId" : "spaceId", ...errorFields]} />
      <div>
        <button type="submit" className="primary" disabled={!value || copy.isPending}>
          {copy.isPending ? t("spaces.copy.copying") : t("library.copy.submit")}
        </button>
      </div>
    </form>
  );
}
