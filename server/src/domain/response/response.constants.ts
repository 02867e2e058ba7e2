/**
 * How long a stored response stays readable (and usable as `previous_response_id`): 30 days, as OpenAI keeps
 * its own stored responses. The rows hold whole conversations, so they are not kept longer than clients
 * can expect.
 */
export const responseRetentionSeconds = 30 * 86_400;

/** The most input items one list call returns (OpenAI's limit). */
export const maxInputItemsPerPage = 100;
