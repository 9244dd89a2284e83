/** The API's messages for one field, tied to it by id (`aria-describedby`). */
export function FieldError({ id, messages }: { id: string; messages: string[] | undefined }) {
  if (!messages || messages.length === 0) return null;
  return (
    <p className="field-error" id={id}>
      {messages.join('. ')}
    </p>
  );
}
