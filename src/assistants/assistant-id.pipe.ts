import { ResourceIdPipe } from '../http/resource-id.pipe.js';

/** For `{assistantId}` in every route under `/assistants`. */
export const assistantIdPipe = new ResourceIdPipe('Assistant');
