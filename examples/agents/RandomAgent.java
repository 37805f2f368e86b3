// A bidbluff agent in Java: the bidbluff-agent protocol, version 1 (docs/program-agents.md).
// It plays a seeded random legal move, answered by id.  Java 11 and later run a single source file as it is:
//   bidbluff tournament liars_dice_v0 --agents 'cmd:"java examples/agents/RandomAgent.java"',random
// bidbluff writes compact JSON with "type" first; a regular expression reads the two fields this agent needs
// (a real agent would use a JSON library).
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

public class RandomAgent {
    private static final Pattern LEGAL = Pattern.compile("\"legal\":\\[([0-9,]*)\\]");
    private static final Pattern SEED = Pattern.compile("\"seed\":(-?[0-9]+)");

    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        Random random = new Random(0);
        String line;
        while ((line = in.readLine()) != null) {  // null: bidbluff closed our input, we are done
            if (line.startsWith("{\"type\":\"hello\"")) {
                Matcher seed = SEED.matcher(line);
                random = new Random(seed.find() ? Long.parseLong(seed.group(1)) : 0);
                System.out.println("{\"type\":\"hello\",\"version\":1,\"name\":\"RandomAgent.java\"}");
            } else if (line.startsWith("{\"type\":\"act\"")) {
                Matcher legal = LEGAL.matcher(line);
                if (!legal.find()) {
                    System.err.println("RandomAgent.java: no legal moves in the message");
                    System.exit(1);
                }
                String[] ids = legal.group(1).split(",");
                System.out.println("{\"action\":" + ids[random.nextInt(ids.length)] + "}");
            }  // "game" lines need no answer
            System.out.flush();
        }
    }
}
