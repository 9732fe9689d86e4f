import { useUser } from "../../app/session";
import { useI18n } from "../../i18n";
import { useSearch } from "../../ui/router";
import { formatDate, Loading, MoreButton } from "../../ui/ui";
import { AttachmentList } from "../files/Attachments";
import { ReplyForm } from "../posts/Comments";
import { useConversation, useConversations } from "./queries";

/**
 * Private messages of a space: an admin's inbox of the participants' conversations (unread counts,
 * newest first) and the open one (`?with=` in the URL); a participant's own conversation with the
 * space's admins. While the space's messages are off, what was said stays readable.
 */
export default function Conversations({ spaceId, admin, enabled }: { spaceId: string; admin: boolean; enabled: boolean }) {
  const { t, lang } = useI18n();
  const { get, set, path, search } = useSearch();
  const list = useConversations(spaceId);
  const href = (profileId: string) => {
    const q = new URLSearchParams(search);
    q.set("with", profileId);
    return `${path}?${q}`;
  };
  if (!list.data) return <Loading />;
  const conversations = list.data.conversations;
  if (!admin) {
    const own = conversations[0];
    return own ? (
      <Thread spaceId={spaceId} profileId={own.profileId} title={t("messages.withTeachers")} enabled={enabled} />
    ) : (
      <p>{t("common.empty")}</p>
    );
  }
  const open = conversations.find((c) => c.profileId === get("with"));
  return (
    <div className="conversations">
      <nav aria-label={t("messages.inbox")} className="inbox-list">
        <h2>{t("messages.inbox")}</h2>
        {conversations.length === 0 ? (
          <p>{t("messages.none")}</p>
        ) : (
          <ul className="list">
            {conversations.map((c) => (
              <li key={c.profileId} className={c.unreadCount ? "unread" : undefined}>
                <a
                  href={href(c.profileId)}
                  aria-current={c === open ? "true" : undefined}
                  onClick={(e) => {
                    e.preventDefault();
                    set({ with: c.profileId });
                  }}
                >
                  <strong>{c.displayName}</strong>
                  {c.unreadCount > 0 && (
                    <>
                      {" "}
                      <span className="badge">{t("messages.unread", { count: c.unreadCount })}</span>
                    </>
                  )}
                </a>
                <small className="muted">
                  {c.lastMessagePreview ?? ""} {c.lastMessageAt ? `· ${formatDate(c.lastMessageAt, lang)}` : ""}
                </small>
              </li>
            ))}
          </ul>
        )}
      </nav>
      {open ? (
        <Thread key={open.profileId} spaceId={spaceId} profileId={open.profileId} title={open.displayName} enabled={enabled} />
      ) : (
        conversations.length > 0 && <p className="muted">{t("messages.pick")}</p>
      )}
    </div>
  );
}

/** One conversation, chat-style: oldest at the top, mine on the right, a box to write below. */
function Thread({ spaceId, profileId, title, enabled }: { spaceId: string; profileId: string; title: string; enabled: boolean }) {
  const { t, lang } = useI18n();
  const user = useUser();
  const { messages, send } = useConversation(spaceId, profileId);
  const list = (messages.data?.pages.flatMap((p) => p.messages) ?? []).slice().reverse();
  return (
    <section className="thread stack" aria-labelledby={`thread-${profileId}`}>
      <h2 id={`thread-${profileId}`}>{title}</h2>
      <MoreButton list={messages} label={t("messages.older")} />
      {!messages.data ? (
        <Loading />
      ) : list.length === 0 ? (
        <p className="muted">{t("messages.startHint")}</p>
      ) : (
        <ol className="chat" aria-label={t("messages.messages")}>
          {list.map((m) => (
            <li key={m.id} className={m.authorId === user.id ? "mine" : "theirs"}>
              <p className="muted">
                <strong>{m.authorName ?? "—"}</strong> · {formatDate(m.createdAt, lang)}
              </p>
              <p className="pre">{m.body}</p>
              <AttachmentList files={m.attachments} />
            </li>
          ))}
        </ol>
      )}
      {enabled ? (
        <ReplyForm
          label={t("messages.write")}
          submit={t("messages.send")}
          error={send.error}
          pending={send.isPending}
          onSend={(body, files, onProgress) => send.mutateAsync({ body, files, onProgress })}
        />
      ) : (
        <p className="muted">{t("messages.off")}</p>
      )}
    </section>
  );
}
