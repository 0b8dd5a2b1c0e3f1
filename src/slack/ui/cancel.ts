/** The button under `/sms cancel <id>`'s question; its value is the MessageId. */
export const CANCEL_CONFIRM_ACTION = 'cancel_confirm';
