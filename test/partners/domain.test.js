import { checkDigit, checkRfc } from '../../nodes/shared/tax/rfc';

describe('RFC', () => {
	test.each([
		['EKU9003173C9', '9'], // SAT's published test RFC (legal entity, 12 characters)
		['XIA190128J61', '1'],
		['CACX7605101P8', '8'], // person, 13 characters
	])('check digit of %s is %s', (rfc, digit) => {
		expect(checkDigit(rfc)).toBe(digit);
		expect(checkRfc(rfc)).toEqual({ normalized: rfc });
	});

	test('lower case is normalized', () => {
		expect(checkRfc(' eku9003173c9 ').normalized).toBe('EKU9003173C9');
	});

	test('generic RFCs are accepted even though their check digit is not computed', () => {
		expect(checkRfc('XAXX010101000')).toEqual({ normalized: 'XAXX010101000' });
		expect(checkRfc('XEXX010101000')).toEqual({ normalized: 'XEXX010101000' });
	});

	test('a wrong check digit is only a warning', () => {
		const result = checkRfc('EKU9003173C1');
		expect(result.error).toBeUndefined();
		expect(result.warning).toMatch(/check digit is 1 but 9 was expected/);
	});

	test.each([
		['EKU900317', /12 \(company\) or 13 \(person\)/],
		['EKU9002303C9', /impossible date part 900230/],
		['EKU9013013C9', /impossible date part 901301/],
		['EK19003173C9', /not an RFC/],
		['EKU9003173CÑ9', /not an RFC/],
		['CACX760510-P8', /not an RFC/],
	])('%s is refused', (rfc, why) => {
		expect(checkRfc(rfc).error).toMatch(why);
	});

	test('29 February exists only in leap years', () => {
		expect(checkRfc('EKU0402293C9').error).toBeUndefined();
		expect(checkRfc('EKU0302293C9').error).toMatch(/impossible date/);
	});
});
