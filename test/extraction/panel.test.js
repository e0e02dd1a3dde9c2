/** @import { INodeTypeDescription } from 'n8n-workflow' */
import { built } from '../harness/engine';

/**
 * What a user meets in n8n's node panel before running anything. n8n shows an action node and its trigger as one
 * entry when the trigger's type name is the node's plus "Trigger", and that entry takes the trigger's
 * description (n8n editor, useActionsGeneration.ts, generateMergedNodesAndActions); so the trigger's description
 * begins with the action node's, and the entry says what the node does rather than "Starts a workflow when…".
 */

const extraction = /** @type {{ description: INodeTypeDescription }} */ (
	built('nodes/Extraction/Extraction.node', 'Extraction')
).description;
const trigger = /** @type {{ description: INodeTypeDescription }} */ (
	built('nodes/Triggers/ExtractionTrigger/ExtractionTrigger.node', 'ExtractionTrigger')
).description;

describe('finding the node', () => {
	test('the node and its trigger are one entry of the panel (the trigger’s type name is the node’s plus "Trigger")', () => {
		expect(trigger.name.replace('Trigger', '')).toBe(extraction.name);
	});

	test('the panel shows the action node’s description for the Document Extraction entry (n8n shows the trigger’s there, so it begins with it)', () => {
		expect(extraction.description).toMatch(/^Extract CFDI invoices/);
		expect(trigger.description.startsWith(extraction.description)).toBe(true);
	});
});
