// A student's Nimsys (COMP90041 Project C) in one file, for casino explore's tests.
// It has one planted bug, the issue's: resetstats sets the wins to 0 but keeps the games
// played. Everything else follows the assignment (players.dat in its own format).
import java.io.*;
import java.util.*;

public class Nimsys {
    static class Player {
        String user, family, given; boolean ai; int played, won;
        Player(String u, String f, String g, boolean a) { user = u; family = f; given = g; ai = a; }
        String full() { return given + " " + family; }
        double ratio() { return played == 0 ? 0 : (double) won / played; }
    }

    static final Scanner in = new Scanner(System.in);
    static final TreeMap<String, Player> players = new TreeMap<>();

    public static void main(String[] args) throws IOException {
        load();
        System.out.println("Welcome to Nim");
        System.out.print("\n$");
        while (in.hasNextLine()) {
            String line = in.nextLine().trim();
            String word = line.split(" ")[0];
            String rest = line.length() > word.length() ? line.substring(word.length()).trim() : "";
            String[] a = rest.isEmpty() ? new String[0] : rest.split(",");
            try {
                if (word.equals("exit")) { save(); System.out.println(); System.exit(0); }
                command(word, a);
            } catch (IllegalArgumentException e) {
                System.out.println(e.getMessage());
            }
            System.out.print("\n$");
        }
        save();
    }

    static void need(String[] a, int n) {
        if (a.length < n) throw new IllegalArgumentException("Incorrect number of arguments supplied to command.");
    }

    static Player get(String user) {
        Player p = players.get(user);
        if (p == null) throw new IllegalArgumentException("The player does not exist.");
        return p;
    }

    static void command(String word, String[] a) {
        switch (word) {
            case "addplayer": case "addaiplayer":
                need(a, 3);
                if (players.containsKey(a[0])) throw new IllegalArgumentException("The player already exists.");
                players.put(a[0], new Player(a[0], a[1], a[2], word.equals("addaiplayer")));
                break;
            case "removeplayer":
                if (a.length > 0) { get(a[0]); players.remove(a[0]); }
                else if (ask("Are you sure you want to remove all players? (y/n)")) players.clear();
                break;
            case "editplayer":
                need(a, 3); Player e = get(a[0]); e.family = a[1]; e.given = a[2];
                break;
            case "resetstats":
                if (a.length > 0) get(a[0]).won = 0;  // the bug: played is kept
                else if (ask("Are you sure you want to reset all player statistics? (y/n)"))
                    for (Player p : players.values()) { p.won = 0; p.played = 0; }
                break;
            case "displayplayer":
                for (Player p : a.length > 0 ? List.of(get(a[0])) : players.values())
                    System.out.println(p.user + "," + p.given + "," + p.family + "," + p.played + " games," + p.won + " wins");
                break;
            case "rankings":
                List<Player> list = new ArrayList<>(players.values());
                boolean asc = a.length > 0 && a[0].equals("asc");
                list.sort((x, y) -> x.ratio() != y.ratio()
                        ? (asc ? Double.compare(x.ratio(), y.ratio()) : Double.compare(y.ratio(), x.ratio()))
                        : x.user.compareTo(y.user));
                for (Player p : list.subList(0, Math.min(10, list.size())))
                    System.out.printf("%-5s| %02d games | %s%n", Math.round(p.ratio() * 100) + "%", p.played, p.full());
                break;
            case "startgame":
                need(a, 4); game(Integer.parseInt(a[0]), Integer.parseInt(a[1]), a[2], a[3], false);
                break;
            case "startadvancedgame":
                need(a, 3); game(Integer.parseInt(a[0]), 2, a[1], a[2], true);
                break;
            default:
                throw new IllegalArgumentException("'" + word + "' is not a valid command.");
        }
    }

    static boolean ask(String question) {
        System.out.println(question);
        return in.nextLine().trim().equals("y");
    }

    static void game(int stones, int bound, String u1, String u2, boolean advanced) {
        if (!players.containsKey(u1) || !players.containsKey(u2))
            throw new IllegalArgumentException("One of the players does not exist.");
        Player[] seat = {players.get(u1), players.get(u2)};
        boolean[] left = new boolean[stones];
        Arrays.fill(left, true);
        System.out.println();
        System.out.println("Initial stone count: " + stones);
        System.out.println(advanced ? "Stones display: " + board(left, true) : "Maximum stone removal: " + bound);
        System.out.println("Player 1: " + seat[0].full());
        System.out.println("Player 2: " + seat[1].full());
        int turn = 0, remaining = stones;
        while (remaining > 0) {
            System.out.println();
            System.out.println(remaining + " stones left: " + board(left, advanced));
            System.out.println(seat[turn].given + "'s turn - " + (advanced ? "which to remove?" : "remove how many?"));
            int most = Math.min(bound, remaining);
            String move = seat[turn].ai ? (advanced ? firstMove(left) : "" + aiTake(remaining, bound)) : in.nextLine().trim();
            try {
                remaining -= advanced ? take(left, move) : take(left, move, most);
            } catch (RuntimeException bad) {
                System.out.println();
                System.out.println(advanced ? "Invalid move." : "Invalid move. You must remove between 1 and " + most + " stones.");
                continue;
            }
            if (remaining == 0) break;
            turn = 1 - turn;
        }
        Player winner = advanced ? seat[turn] : seat[1 - turn];
        seat[0].played++; seat[1].played++; winner.won++;
        System.out.println();
        System.out.println("Game Over");
        System.out.println(winner.full() + " wins!");
    }

    static int aiTake(int remaining, int bound) {
        int t = (remaining - 1) % (bound + 1);
        return t == 0 ? 1 : t;
    }

    static String firstMove(boolean[] left) {
        for (int i = 0; i < left.length; i++) if (left[i]) return (i + 1) + " 1";
        return "1 1";
    }

    static int take(boolean[] left, String move, int most) {
        int n = Integer.parseInt(move);
        if (n < 1 || n > most) throw new IllegalArgumentException();
        int gone = 0;
        for (int i = left.length - 1; i >= 0 && gone < n; i--) if (left[i]) { left[i] = false; gone++; }
        return n;
    }

    static int take(boolean[] left, String move) {
        String[] p = move.split(" ");
        int pos = Integer.parseInt(p[0]) - 1, n = Integer.parseInt(p[1]);
        if (n < 1 || n > 2 || pos < 0 || pos + n > left.length) throw new IllegalArgumentException();
        for (int i = pos; i < pos + n; i++) if (!left[i]) throw new IllegalArgumentException();
        for (int i = pos; i < pos + n; i++) left[i] = false;
        return n;
    }

    static String board(boolean[] left, boolean advanced) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < left.length; i++) {
            if (advanced) b.append(i == 0 ? "" : " ").append("<").append(i + 1).append(",").append(left[i] ? "*" : "x").append(">");
            else if (left[i]) b.append(b.length() == 0 ? "*" : " *");
        }
        return b.toString();
    }

    static void load() throws IOException {
        File f = new File("players.dat");
        if (!f.exists()) return;
        for (String line : java.nio.file.Files.readAllLines(f.toPath())) {
            String[] x = line.split(",");
            Player p = new Player(x[1], x[2], x[3], x[0].equals("ai"));
            p.played = Integer.parseInt(x[4]); p.won = Integer.parseInt(x[5]);
            players.put(p.user, p);
        }
    }

    static void save() {
        try (PrintWriter w = new PrintWriter(new FileWriter("players.dat"))) {
            for (Player p : players.values())
                w.println((p.ai ? "ai" : "human") + "," + p.user + "," + p.family + "," + p.given + "," + p.played + "," + p.won);
        } catch (IOException e) {
            System.err.println("cannot save players.dat");
        }
    }
}
