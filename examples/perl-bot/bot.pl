#!/usr/bin/env perl
# A minimal arena bot in Perl, speaking the bot protocol (docs/protocol.md)
# on stdin/stdout. It asks for the legal moves in its greeting and plays the
# first one, its weakest set: always legal, never clever. Run it with:  arena match cmd:"perl examples/perl-bot/bot.pl" random
use strict;
use warnings;
use JSON::PP;

$| = 1;    # answers must not sit in a buffer
my $json = JSON::PP->new->canonical;

while (my $line = <STDIN>) {
    next unless $line =~ /\S/;
    my $msg  = $json->decode($line);
    my $type = $msg->{type};
    my $id   = $msg->{id};
    if ($type eq 'start') {
        # legal_moves: every play request carries "legal", the moves in canonical text.
        print $json->encode({type => 'ready', id => $id, name => 'perl-lowest', version => '1.0',
                             legal_moves => JSON::PP::true}), "\n";
    }
    elsif ($type eq 'play') {
        # "pass", when legal, is the last of the list: the first entry is a play if any is.
        my $move = $msg->{legal}[0];
        print $json->encode({type => 'move', id => $id, move => $move}), "\n";
    }
    elsif ($type eq 'exchange') {
        my @hand  = @{ $msg->{view}{hand} };
        my @cards = @hand[0 .. $msg->{count} - 1];
        print $json->encode({type => 'exchange', id => $id, cards => \@cards}), "\n";
    }
    elsif ($type eq 'quit') {
        last;
    }
    # 'end_deal' needs no answer.
}
