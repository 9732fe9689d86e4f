import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useI18n } from "../../i18n";
import { Link } from "../../ui/Link";
import { Field, fieldError } from "../../ui/ui";
import { spacePath } from "../spaces/queries";
import { type CopyTarget, CopyTargetForm } from "./CopyTargetForm";
import { copyContent, libraryKeys } from "./queries";

/**
 * "Copy to…" (copyContent): a draft copy of the content, with its settings, questions, rubric and
 * files but none of the learners' work, in a folder of any space the member teaches.
 */
export function CopyContent({ contentId, title }: { contentId: string; title: string }) {
  const { t } = useI18n();
  const qc = useQueryClient();
  const [name, setName] = useState(title);
  const copy = useMutation({
    mutationFn: ({ nodeId }: CopyTarget) => copyContent({ params: { path: { contentId } }, body: { nodeId: nodeId ?? "", title: name } }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: libraryKeys.allContents }),
  });
  return (
    <CopyTargetForm
      into="folder"
      help={t("library.copy.help")}
      copy={copy}
      fields={
        <Field
          label={t("library.contentTitle")}
          required
          value={name}
          onChange={(e) => setName(e.target.value)}
          error={fieldError(copy.error, "title", t)}
        />
      }
      errorFields={["title"]}
      done={(copied, to) => ({
        message: t("library.copy.done", { title: copied.title }),
        next: <Link to={spacePath(to.spaceId, copied.id)}>{t("library.copy.open")}</Link>,
      })}
    />
  );
}
