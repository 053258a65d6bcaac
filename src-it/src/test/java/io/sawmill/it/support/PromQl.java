package io.sawmill.it.support;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A syntax and type checker for PromQL expressions, written after Prometheus' grammar
 * (promql/parser/generated_parser.y) because no PromQL parser for Java is published on Maven
 * Central. It parses the whole language the alert rules and dashboards use — selectors with
 * matchers, range and subquery brackets, offset/@, aggregations with by/without and a parameter,
 * binary operators with Prometheus' precedence, bool and on/ignoring/group_left/group_right — and
 * checks value types the way Prometheus does (a function gets the argument types it declares, rate()
 * needs a range vector, binary operators and aggregations take no range vector).
 * <p>
 * {@link #parse} throws {@link IllegalArgumentException} naming the position of the first error and
 * returns the metric names the expression selects.
 */
public final class PromQl {

	/** The value types of PromQL. */
	enum Type { SCALAR, VECTOR, MATRIX, STRING }

	private static final Map<String, List<Type>> FUNCTIONS = Map.ofEntries(
			Map.entry("abs", List.of(Type.VECTOR)), Map.entry("absent", List.of(Type.VECTOR)),
			Map.entry("absent_over_time", List.of(Type.MATRIX)), Map.entry("avg_over_time", List.of(Type.MATRIX)),
			Map.entry("ceil", List.of(Type.VECTOR)), Map.entry("changes", List.of(Type.MATRIX)),
			Map.entry("clamp_max", List.of(Type.VECTOR, Type.SCALAR)), Map.entry("clamp_min", List.of(Type.VECTOR, Type.SCALAR)),
			Map.entry("count_over_time", List.of(Type.MATRIX)), Map.entry("delta", List.of(Type.MATRIX)),
			Map.entry("deriv", List.of(Type.MATRIX)), Map.entry("exp", List.of(Type.VECTOR)),
			Map.entry("floor", List.of(Type.VECTOR)), Map.entry("histogram_quantile", List.of(Type.SCALAR, Type.VECTOR)),
			Map.entry("idelta", List.of(Type.MATRIX)), Map.entry("increase", List.of(Type.MATRIX)),
			Map.entry("irate", List.of(Type.MATRIX)), Map.entry("max_over_time", List.of(Type.MATRIX)),
			Map.entry("min_over_time", List.of(Type.MATRIX)), Map.entry("predict_linear", List.of(Type.MATRIX, Type.SCALAR)),
			Map.entry("rate", List.of(Type.MATRIX)), Map.entry("resets", List.of(Type.MATRIX)),
			Map.entry("scalar", List.of(Type.VECTOR)), Map.entry("sum_over_time", List.of(Type.MATRIX)),
			Map.entry("time", List.of()), Map.entry("timestamp", List.of(Type.VECTOR)),
			Map.entry("vector", List.of(Type.SCALAR)), Map.entry("sqrt", List.of(Type.VECTOR)),
			Map.entry("ln", List.of(Type.VECTOR)), Map.entry("quantile_over_time", List.of(Type.SCALAR, Type.MATRIX)),
			Map.entry("last_over_time", List.of(Type.MATRIX)), Map.entry("stddev_over_time", List.of(Type.MATRIX)));

	private static final Set<String> RETURNS_SCALAR = Set.of("scalar", "time");
	private static final Set<String> AGGREGATIONS = Set.of("sum", "avg", "min", "max", "count", "stddev", "stdvar",
			"group", "topk", "bottomk", "quantile", "count_values");
	private static final Set<String> PARAMETERIZED = Set.of("topk", "bottomk", "quantile", "count_values");
	private static final List<Set<String>> PRECEDENCE = List.of(Set.of("or"), Set.of("and", "unless"),
			Set.of("==", "!=", "<=", "<", ">=", ">"), Set.of("+", "-"), Set.of("*", "/", "%", "atan2"), Set.of("^"));
	private static final Set<String> COMPARISONS = PRECEDENCE.get(2);
	private static final Set<String> SET_OPERATORS = Set.of("or", "and", "unless");
	private static final Pattern TOKEN = Pattern.compile("\\s*(?:(?<dur>\\d+(?:ms|s|m|h|d|w|y)(?:\\d+(?:ms|s|m|h|d|w|y))*)(?![\\w.])"
			+ "|(?<num>0x[0-9a-fA-F]+|\\d+(?:\\.\\d*)?(?:[eE][+-]?\\d+)?|\\.\\d+(?:[eE][+-]?\\d+)?)"
			+ "|(?<str>\"(?:[^\"\\\\]|\\\\.)*\"|'(?:[^'\\\\]|\\\\.)*')"
			+ "|(?<id>[a-zA-Z_:][a-zA-Z0-9_:]*)" + "|(?<op>==|!=|<=|>=|=~|!~|[-+*/%^<>=(){}\\[\\],:@]))");

	private final List<String> tokens = new ArrayList<>();
	private final List<Integer> positions = new ArrayList<>();
	private final Set<String> metrics = new TreeSet<>();
	private final String source;
	private int next;

	private PromQl(String source) {
		this.source = source;
		Matcher matcher = TOKEN.matcher(source);
		int at = 0;
		while (at < source.length() && !source.substring(at).isBlank()) {
			if (!matcher.find(at) || matcher.start() != at) {
				throw new IllegalArgumentException("unexpected character at " + at + " in: " + source);
			}
			int start = matcher.end() - matcher.group().stripLeading().length();
			tokens.add(matcher.group().strip());
			positions.add(start);
			at = matcher.end();
		}
	}

	/** Parses and type-checks {@code expression}; returns the metric names it selects. */
	public static Set<String> parse(String expression) {
		PromQl parser = new PromQl(expression);
		Type type = parser.expression(0);
		if (parser.next < parser.tokens.size()) {
			throw parser.error("unexpected '" + parser.peek() + "'");
		}
		if (type == Type.STRING) {
			throw parser.error("a rule cannot evaluate to a string");
		}
		return parser.metrics;
	}

	private Type expression(int level) {
		if (level == PRECEDENCE.size()) {
			return unary();
		}
		Type left = expression(level + 1);
		while (PRECEDENCE.get(level).contains(peek())) {
			String operator = take();
			boolean bool = false;
			if (COMPARISONS.contains(operator) && "bool".equals(peek())) {
				take();
				bool = true;
			}
			boolean matching = false;
			if ("on".equals(peek()) || "ignoring".equals(peek())) {
				take();
				labels();
				matching = true;
				if ("group_left".equals(peek()) || "group_right".equals(peek())) {
					take();
					if ("(".equals(peek())) {
						labels();
					}
				}
			}
			// ^ is right-associative, everything else left-associative
			Type right = "^".equals(operator) ? expression(level) : expression(level + 1);
			left = binary(operator, left, right, bool, matching);
			if ("^".equals(operator)) {
				break;
			}
		}
		return left;
	}

	private Type binary(String operator, Type left, Type right, boolean bool, boolean matching) {
		if (left == Type.MATRIX || right == Type.MATRIX || left == Type.STRING || right == Type.STRING) {
			throw error("binary '" + operator + "' needs scalars or instant vectors, not a range vector or string");
		}
		if (SET_OPERATORS.contains(operator) && (left != Type.VECTOR || right != Type.VECTOR)) {
			throw error("set operator '" + operator + "' needs instant vectors on both sides");
		}
		if (matching && (left != Type.VECTOR || right != Type.VECTOR)) {
			throw error("vector matching needs instant vectors on both sides");
		}
		if (COMPARISONS.contains(operator) && left == Type.SCALAR && right == Type.SCALAR && !bool) {
			throw error("comparisons between scalars must use the bool modifier");
		}
		return left == Type.SCALAR && right == Type.SCALAR ? Type.SCALAR : Type.VECTOR;
	}

	private Type unary() {
		if ("-".equals(peek()) || "+".equals(peek())) {
			take();
			Type operand = unary();
			if (operand != Type.SCALAR && operand != Type.VECTOR) {
				throw error("unary minus needs a scalar or an instant vector");
			}
			return operand;
		}
		return postfix(primary());
	}

	private Type postfix(Type type) {
		while (true) {
			if ("[".equals(peek())) {
				take();
				duration();
				if (":".equals(peek())) {
					take();
					if (!"]".equals(peek())) {
						duration();
					}
					if (type != Type.VECTOR) {
						throw error("a subquery needs an instant vector");
					}
				}
				else if (type != Type.VECTOR || !selectorJustParsed) {
					throw error("a range needs a vector selector");
				}
				expect("]");
				type = Type.MATRIX;
			}
			else if ("offset".equals(peek())) {
				take();
				if ("-".equals(peek())) {
					take();
				}
				duration();
			}
			else if ("@".equals(peek())) {
				take();
				if ("start".equals(peek()) || "end".equals(peek())) {
					take();
					expect("(");
					expect(")");
				}
				else {
					number();
				}
			}
			else {
				selectorJustParsed = false;
				return type;
			}
		}
	}

	private boolean selectorJustParsed;

	private Type primary() {
		selectorJustParsed = false;
		String token = peek();
		if (token.isEmpty()) {
			throw error("unexpected end of expression");
		}
		if ("(".equals(token)) {
			take();
			Type inner = expression(0);
			expect(")");
			return inner;
		}
		if (token.startsWith("\"") || token.startsWith("'")) {
			take();
			return Type.STRING;
		}
		if (Character.isDigit(token.charAt(0)) || token.startsWith(".") || "Inf".equals(token) || "NaN".equals(token)) {
			number();
			return Type.SCALAR;
		}
		if ("{".equals(token)) {
			matchers(true);
			selectorJustParsed = true;
			return Type.VECTOR;
		}
		if (isIdentifier(token)) {
			take();
			if (AGGREGATIONS.contains(token) && ("(".equals(peek()) || "by".equals(peek()) || "without".equals(peek()))) {
				return aggregation(token);
			}
			if ("(".equals(peek())) {
				return call(token);
			}
			metrics.add(token);
			if ("{".equals(peek())) {
				matchers(false);
			}
			selectorJustParsed = true;
			return Type.VECTOR;
		}
		throw error("unexpected '" + token + "'");
	}

	private Type aggregation(String operator) {
		boolean grouped = false;
		if ("by".equals(peek()) || "without".equals(peek())) {
			take();
			labels();
			grouped = true;
		}
		expect("(");
		if (PARAMETERIZED.contains(operator)) {
			Type parameter = expression(0);
			if (parameter != ("count_values".equals(operator) ? Type.STRING : Type.SCALAR)) {
				throw error(operator + " needs a " + ("count_values".equals(operator) ? "string" : "scalar") + " parameter");
			}
			expect(",");
		}
		Type operand = expression(0);
		if (operand != Type.VECTOR) {
			throw error(operator + " aggregates an instant vector, not " + operand);
		}
		expect(")");
		if (!grouped && ("by".equals(peek()) || "without".equals(peek()))) {
			take();
			labels();
		}
		return Type.VECTOR;
	}

	private Type call(String function) {
		List<Type> expected = FUNCTIONS.get(function);
		if (expected == null) {
			throw error("unknown function " + function);
		}
		expect("(");
		List<Type> actual = new ArrayList<>();
		if (!")".equals(peek())) {
			actual.add(expression(0));
			while (",".equals(peek())) {
				take();
				actual.add(expression(0));
			}
		}
		expect(")");
		if (!actual.equals(expected)) {
			throw error(function + " takes " + expected + " but got " + actual);
		}
		return RETURNS_SCALAR.contains(function) ? Type.SCALAR : Type.VECTOR;
	}

	private void matchers(boolean needsName) {
		expect("{");
		boolean any = false;
		while (!"}".equals(peek())) {
			String label = take();
			if (label.isEmpty() || !isIdentifier(label)) {
				throw error("expected a label name, got '" + label + "'");
			}
			String operator = take();
			if (!Set.of("=", "!=", "=~", "!~").contains(operator)) {
				throw error("expected a label matcher operator, got '" + operator + "'");
			}
			String value = take();
			if (value.isEmpty() || !(value.startsWith("\"") || value.startsWith("'"))) {
				throw error("expected a quoted label value, got '" + value + "'");
			}
			if ("__name__".equals(label) && "=".equals(operator)) {
				metrics.add(value.substring(1, value.length() - 1));
			}
			any = true;
			if (",".equals(peek())) {
				take();
			}
			else if (!"}".equals(peek())) {
				throw error("expected ',' or '}'");
			}
		}
		expect("}");
		if (needsName && !any) {
			throw error("a vector selector needs a metric name or a matcher");
		}
	}

	private void labels() {
		expect("(");
		while (!")".equals(peek())) {
			String label = take();
			if (label.isEmpty() || !isIdentifier(label)) {
				throw error("expected a label name, got '" + label + "'");
			}
			if (",".equals(peek())) {
				take();
			}
			else if (!")".equals(peek())) {
				throw error("expected ',' or ')'");
			}
		}
		expect(")");
	}

	private void duration() {
		String token = take();
		if (token.isEmpty() || !token.matches("(\\d+(ms|s|m|h|d|w|y))+")) {
			throw error("expected a duration like 5m, got '" + token + "'");
		}
	}

	private void number() {
		String token = take();
		if (token.isEmpty() || !(token.matches("0x[0-9a-fA-F]+|\\d+(\\.\\d*)?([eE][+-]?\\d+)?|\\.\\d+([eE][+-]?\\d+)?")
				|| "Inf".equals(token) || "NaN".equals(token))) {
			throw error("expected a number, got '" + token + "'");
		}
	}

	private static boolean isIdentifier(String token) {
		return token.matches("[a-zA-Z_:][a-zA-Z0-9_:]*");
	}

	/** The next token, or "" at the end. */
	private String peek() {
		return next < tokens.size() ? tokens.get(next) : "";
	}

	private String take() {
		return next < tokens.size() ? tokens.get(next++) : "";
	}

	private void expect(String token) {
		if (!token.equals(peek())) {
			throw error("expected '" + token + "', got '" + peek() + "'");
		}
		take();
	}

	private IllegalArgumentException error(String message) {
		int at = next < positions.size() ? positions.get(Math.min(next, positions.size() - 1)) : source.length();
		return new IllegalArgumentException(message + " at " + at + " in: " + source);
	}
}
